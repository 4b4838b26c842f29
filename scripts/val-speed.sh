#!/usr/bin/env bash
# Whole-process speed and memory of `spirv-asm val` against spirv-val 2025.5, in the same run.
#
# Cases: large/synth50.spv with default options and with --target-env vulkan1.1, and a 64 MB
# module of 16 million instructions (header, OpCapability Shader, OpMemoryModel Logical Simple,
# then 16,000,000 OpNop; made here) that both tools reject at its third instruction. Each case
# runs REPS times per tool, interleaved; the table gives the minimum wall time, the minimum
# user+sys CPU time and the peak RSS of each, the ratios (theirs / ours) and whether the outputs
# are byte-identical. The machine is shared and noisy: the load average is printed with the
# table, and minima over several repetitions are the figures to quote.
#
# Usage: scripts/val-speed.sh
#   REPS=5 (repetitions), SPIRV_TOOLS_BIN (folder holding spirv-val), OURS (spirv-asm binary;
#   default target/release/spirv-asm, built if missing), SPIRV_CORPUS (default ../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."

reps=${REPS:-5}
bin=${SPIRV_TOOLS_BIN:-$(python3 -c "import sysconfig;print(sysconfig.get_paths()['purelib'])")/cmeel.prefix/bin}
ours=${OURS:-target/release/spirv-asm}
synth=${SPIRV_CORPUS:-../shared/corpus}/large/synth50.spv
[ -x "$ours" ] || cargo build --release -q -p spirv-asm

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp/nop64.spv" <<'EOF'
import struct, sys
n = 16_000_000
head = struct.pack('<5I', 0x07230203, 0x00010000, 0, 1, 0)
# OpCapability Shader; OpMemoryModel Logical Simple; then OpNop (word count 1, opcode 0).
body = struct.pack('<5I', 0x00020011, 1, 0x0003000E, 0, 0)
with open(sys.argv[1], 'wb') as f:
    f.write(head + body + struct.pack('<I', 0x00010000) * n)
EOF

# run LABEL ARGS...: appends "wall cpu rss_kb" to $tmp/LABEL, and the output to $tmp/LABEL.out.
run() {
  local label=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" >"$tmp/$label.out" 2>&1 || true
  # A failing command's first line says so: the figures are on the last.
  tail -1 "$tmp/t" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' >>"$tmp/$label"
}

min() { sort -g | head -1; }

printf "spirv-asm val vs spirv-val, %s repetitions, min of each; %s; load average %s\n" \
  "$reps" "$(date -u +%Y-%m-%dT%H:%MZ)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-26s %7s %7s %6s | %7s %7s %6s | %6s %6s %6s %s\n" case wall cpu MB "sv wall" "sv cpu" "sv MB" \
  "wall x" "cpu x" "RSS x" same
for c in synth50 synth50-vulkan1.1 nop64; do
  case $c in
    synth50) args=("$synth") ;;
    synth50-vulkan1.1) args=(--target-env vulkan1.1 "$synth") ;;
    nop64) args=("$tmp/nop64.spv") ;;
  esac
  rm -f "$tmp/ours" "$tmp/sv"
  for _ in $(seq "$reps"); do
    run ours "$ours" val "${args[@]}"
    run sv "$bin/spirv-val" "${args[@]}"
  done
  same=no
  cmp -s "$tmp/ours.out" "$tmp/sv.out" && same=yes
  ow=$(cut -d' ' -f1 "$tmp/ours" | min)
  oc=$(cut -d' ' -f2 "$tmp/ours" | min)
  om=$(cut -d' ' -f3 "$tmp/ours" | min)
  sw=$(cut -d' ' -f1 "$tmp/sv" | min)
  sc=$(cut -d' ' -f2 "$tmp/sv" | min)
  sm=$(cut -d' ' -f3 "$tmp/sv" | min)
  awk -v c="$c" -v ow="$ow" -v oc="$oc" -v om="$om" -v sw="$sw" -v sc="$sc" -v sm="$sm" -v same="$same" \
    'function r(a, b) { return b > 0 ? sprintf("%.1f", a / b) : "inf" }
     BEGIN { printf "%-26s %7.2f %7.2f %6.0f | %7.2f %7.2f %6.0f | %6s %6s %6s %s\n",
       c, ow, oc, om / 1024, sw, sc, sm / 1024, r(sw, ow), r(sc, oc), sprintf("%.2f", om / sm), same }'
done
echo "(x: spirv-val / ours for wall and CPU; RSS x: ours / spirv-val. nop64's input is 62.5 MB.)"
