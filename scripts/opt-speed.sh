#!/usr/bin/env bash
# Whole-process speed of `spirv-asm opt` against spirv-opt 2025.5, pass by pass, in the same run.
#
# For each pass (and the 10-pass head of -O) both tools run REPS times, interleaved, on one module
# with --skip-validation; the table gives the minimum wall time, the minimum user+sys CPU time and
# the peak RSS of each, the wall ratio, and whether the outputs are byte-identical.
# The machine is shared and noisy: minima over several repetitions are the figures to quote.
#
# Usage: scripts/opt-speed.sh [module.spv] [pass ...]   (a pass written with its dashes, -O,
#   -Os or --legalize-hlsl, is a preset and runs with validation on, as users run presets)
#   REPS=5 (repetitions), SPIRV_TOOLS_BIN (folder holding spirv-opt), OURS (spirv-asm binary;
#   default target/release/spirv-asm, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

module=${1:-${SPIRV_CORPUS:-../shared/corpus}/large/synth50.spv}
shift || true
reps=${REPS:-5}
bin=${SPIRV_TOOLS_BIN:-$(python3 -c "import sysconfig;print(sysconfig.get_paths()['purelib'])")/cmeel.prefix/bin}
ours=${OURS:-target/release/spirv-asm}
[ -x "$ours" ] || cargo build --release -q -p spirv-asm

# The first ten passes of -O (spirv-opt's RegisterPerformancePasses order), through the ADCE
# after --eliminate-local-single-store; O-head17 goes on to the ADCE after -O's first
# --eliminate-local-multi-store (the next -O pass, --ccp, is not implemented yet).
o_head="--wrap-opkill --eliminate-dead-branches --merge-return --inline-entry-points-exhaustive
--eliminate-dead-functions --eliminate-dead-code-aggressive --private-to-local
--eliminate-local-single-block --eliminate-local-single-store --eliminate-dead-code-aggressive"
o_head17="$o_head --scalar-replacement=0 --convert-local-access-chains --eliminate-local-single-block
--eliminate-local-single-store --eliminate-dead-code-aggressive --eliminate-local-multi-store
--eliminate-dead-code-aggressive"
# O-head18: O-head17, then -O's --ccp.
o_head18="$o_head17 --ccp"

if [ $# -gt 0 ]; then
  passes=("$@")
else
  passes=(wrap-opkill eliminate-dead-branches merge-return inline-entry-points-exhaustive
    eliminate-dead-functions eliminate-dead-code-aggressive private-to-local
    eliminate-local-single-block eliminate-local-single-store eliminate-local-multi-store
    ssa-rewrite merge-blocks cfg-cleanup eliminate-dead-inserts vector-dce scalar-replacement
    convert-local-access-chains copy-propagate-arrays reduce-load-size fix-storage-class
    fix-opextinst-opcodes O-head O-head17 simplify-instructions local-redundancy-elimination
    redundancy-elimination combine-access-chains
    if-conversion eliminate-dead-members loop-unroll interpolate-fixup)
  passes+=(ccp O-head18)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run TOOL-LABEL ARGS...: appends "wall cpu rss_kb" to $tmp/LABEL.
run() {
  local label=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" >/dev/null 2>&1 || echo "FAIL $label" >&2
  # The figures are time's last line (a failed run's first line says its exit status).
  tail -1 "$tmp/t" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' >>"$tmp/$label"
}

min() { sort -g | head -1; }

printf "%s, %s repetitions, min of each; %s\n" "$(basename "$module")" "$reps" "$(date -u +%Y-%m-%dT%H:%MZ)"
printf "%-32s %8s %8s %7s | %8s %8s %7s | %6s %6s %s\n" pass "wall" "cpu" "MB" "sv wall" "sv cpu" "sv MB" "wall x" "cpu x" same
for p in "${passes[@]}"; do
  if [ "$p" = O-head ]; then
    # shellcheck disable=SC2206
    args=(--skip-validation $o_head)
  elif [ "$p" = O-head17 ]; then
    # shellcheck disable=SC2206
    args=(--skip-validation $o_head17)
  elif [ "$p" = O-head18 ]; then
    # shellcheck disable=SC2206
    args=(--skip-validation $o_head18)
  elif [ "${p#-}" != "$p" ]; then
    # A preset (-O, -Os, --legalize-hlsl): validation on, as users run them.
    args=("$p")
  else
    args=(--skip-validation "--$p")
  fi
  rm -f "$tmp/ours" "$tmp/spv"
  for _ in $(seq "$reps"); do
    run ours "$ours" opt "${args[@]}" "$module" -o "$tmp/ours.spv"
    run spv "$bin/spirv-opt" "${args[@]}" "$module" -o "$tmp/spv.spv"
  done
  ow=$(cut -d' ' -f1 "$tmp/ours" | min); oc=$(cut -d' ' -f2 "$tmp/ours" | min)
  om=$(cut -d' ' -f3 "$tmp/ours" | min)
  sw=$(cut -d' ' -f1 "$tmp/spv" | min); sc=$(cut -d' ' -f2 "$tmp/spv" | min)
  sm=$(cut -d' ' -f3 "$tmp/spv" | min)
  same=no
  cmp -s "$tmp/ours.spv" "$tmp/spv.spv" && same=yes
  awk -v p="$p" -v ow="$ow" -v oc="$oc" -v om="$om" -v sw="$sw" -v sc="$sc" -v sm="$sm" -v same="$same" \
    'function r(a, b) { return a > 0 ? sprintf("%.1f", b / a) : "inf" }
     BEGIN { printf "%-32s %8.2f %8.2f %7d | %8.2f %8.2f %7d | %6s %6s %s\n",
       p, ow, oc, om / 1024, sw, sc, sm / 1024, r(ow, sw), r(oc, sc), same }'
done

# In process: the 10-pass head of -O (or what CORPUS_ARGS names, e.g. CORPUS_ARGS=-O) over
# every corpus module in one `spirv-asm opt -j 1` batch (inputs read, passes run, outputs
# written to tmpfs when there is one), against a shell loop of spirv-opt processes over the
# same files. MB/s counts input bytes.
corpus=${SPIRV_CORPUS:-../shared/corpus}/bin
if [ -d "$corpus" ] && [ -z "${SKIP_CORPUS:-}" ]; then
  out=$(mktemp -d "${OUT_TMP:-/dev/shm}/opt-speed.XXXXXX" 2>/dev/null || mktemp -d)
  bytes=$(cat "$corpus"/*.spv | wc -c)
  files=$(find "$corpus" -name '*.spv' | wc -l)
  # shellcheck disable=SC2206
  args=(${CORPUS_ARGS:---skip-validation $o_head})
  best=""
  for _ in $(seq "$reps"); do
    rm -rf "${out:?}"/*
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$ours" opt -j 1 -q "${args[@]}" "$corpus" -o "$out" >/dev/null 2>&1 || true
    w=$(tail -1 "$tmp/t" | awk '{print $1}')
    best=$(printf "%s\n%s\n" "$best" "$w" | grep . | sort -g | head -1)
  done
  sbest=""
  for _ in $(seq "$reps"); do
    start=$(date +%s.%N)
    for f in "$corpus"/*.spv; do
      "$bin/spirv-opt" "${args[@]}" "$f" -o "$out/s.spv" >/dev/null 2>&1 || true
    done
    end=$(date +%s.%N)
    sbest=$(printf "%s\n%s\n" "$sbest" "$(echo "$end - $start" | bc)" | grep . | sort -g | head -1)
  done
  rm -rf "$out"
  awk -v a="${CORPUS_ARGS:--O head}" -v b="$bytes" -v n="$files" -v w="$best" -v s="$sbest" 'BEGIN {
    printf "\n%s over the corpus (%d modules, %.1f MB), min of runs:\n", a, n, b / 1e6
    printf "  spirv-asm opt -j 1 (one process): %.2f s, %.1f MB/s\n", w, b / 1e6 / w
    printf "  spirv-opt, one process per module: %.2f s, %.1f MB/s (%.1fx)\n", s, b / 1e6 / s, s / w }'
fi
