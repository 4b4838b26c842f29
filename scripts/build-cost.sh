#!/usr/bin/env bash
# What depending on spirv-core costs a downstream crate, next to rspirv 0.13 and
# rspirv2 0.1.1, measured in the same run; and what spirv-asm-macros costs on top.
#
#   scripts/build-cost.sh [ROUNDS]          (default 2 rounds; modes: check debug release)
#   MODES="check" scripts/build-cost.sh 3
#   CRATES="uses-spirv-core uses-spirv-asm-macros" MODES=debug scripts/build-cost.sh
#   BASELINE=/tmp/main-checkout scripts/build-cost.sh   (also that checkout's spirv-core)
#
# It makes three throwaway crates in a temporary folder, each with only `pub use X;` in
# its lib.rs and one dependency (spirv-core by path, rspirv = "0.13", rspirv2 = "=0.1.1"),
# then builds each cold (its target folder removed) with `cargo <mode> --timings`,
# alternating crates within each round, with default profiles. For every build it
# prints the whole tree's wall and user+sys CPU time and peak memory (/usr/bin/time), and
# the crate's own units from the timings report (spirv-core; rspirv + spirv; rspirv2).
# Then medians and the ratios spirv-core / peer. Registry downloads happen once, before.
#
# The marginal cost in a typical tree: three more crates that already depend on serde
# (derive), serde_json and thiserror, as most real crates' trees do: `typical-base` with
# only those, and `typical-spirv-core` / `typical-rspirv` with the peer added. What each
# peer adds is its crate's figure minus the base's, in the same round; the script prints
# the ratio of those increments (`CRATES` may leave the typical crates out).
# BASELINE names another checkout of this workspace (say, main's, from `git archive`):
# its spirv-core gets the crates `uses-baseline` and `typical-baseline`, built in the
# same rounds, so that a change is measured against what it changes.
# Path dependencies are built the way crates.io ones are, without incremental
# compilation (cargo turns it on for path packages only: that cost spirv-core's side 2-4 s
# of CPU in the typical tree that a user of the published crate never pays, 2026-11-30);
# INCREMENTAL=1 builds as `cargo build` does in a checkout. One difference stays: lints
# are not capped for path packages as they are for crates.io's.
# This is a benchmark: the machine is noisy, so only same-run ratios mean much.
set -euo pipefail
if [ "${INCREMENTAL:-0}" = 1 ]; then unset CARGO_INCREMENTAL; else export CARGO_INCREMENTAL=0; fi
# Default profiles, whatever the shell exports (CARGO_PROFILE_DEV_DEBUG=0, say).
while read -r v; do unset "$v"; done < <(compgen -e | grep '^CARGO_PROFILE_' || true)

rounds="${1:-2}"
modes="${MODES:-check debug release}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/build-cost.XXXXXX")"
# KEEP=1 keeps the crates, their last builds and timing reports.
if [ -n "${KEEP:-}" ]; then echo "keeping $work"; else trap 'rm -rf "$work"' EXIT; fi

make_crate() { # name, dependency line
  mkdir -p "$work/$1/src"
  cat > "$work/$1/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$2

[workspace]
EOF
}
make_crate uses-spirv-core "spirv-core = { path = \"$root/spirv-core\" }"
echo "pub use spirv_core;" > "$work/uses-spirv-core/src/lib.rs"
make_crate uses-rspirv 'rspirv = "0.13"'
echo "pub use rspirv;" > "$work/uses-rspirv/src/lib.rs"
make_crate uses-rspirv2 'rspirv2 = "=0.1.1"'
echo "pub use rspirv2;" > "$work/uses-rspirv2/src/lib.rs"
# What spirv_asm! adds: its crate builds spirv-core and spirv-asm again, for the host.
make_crate uses-spirv-asm-macros "spirv-asm-macros = { path = \"$root/spirv-asm-macros\" }"
printf 'pub const W: &[u32] = spirv_asm_macros::spirv_asm!("OpCapability Shader\\nOpMemoryModel Logical GLSL450");\n' \
  > "$work/uses-spirv-asm-macros/src/lib.rs"
# A crate that already builds the ecosystem's usual derive and JSON crates.
typical_deps='serde = { version = "1", features = ["derive"] }
serde_json = "1"
thiserror = "2"'
typical_lib='#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Config { pub name: String, pub size: u32 }
#[derive(Debug, thiserror::Error)]
#[error("bad config: {0}")]
pub struct Error(String);
pub fn parse(text: &str) -> Result<Config, Error> {
    serde_json::from_str(text).map_err(|e| Error(e.to_string()))
}'
make_crate typical-base "$typical_deps"
echo "$typical_lib" > "$work/typical-base/src/lib.rs"
make_crate typical-spirv-core "$typical_deps
spirv-core = { path = \"$root/spirv-core\" }"
printf '%s\npub use spirv_core;\n' "$typical_lib" > "$work/typical-spirv-core/src/lib.rs"
make_crate typical-rspirv "$typical_deps
rspirv = \"0.13\""
printf '%s\npub use rspirv;\n' "$typical_lib" > "$work/typical-rspirv/src/lib.rs"
crates="${CRATES:-uses-spirv-core uses-rspirv uses-rspirv2 uses-spirv-asm-macros typical-base typical-spirv-core typical-rspirv}"
if [ -n "${BASELINE:-}" ]; then
  base_root="$(cd "$BASELINE" && pwd)"
  make_crate uses-baseline "spirv-core = { path = \"$base_root/spirv-core\" }"
  echo "pub use spirv_core;" > "$work/uses-baseline/src/lib.rs"
  make_crate typical-baseline "$typical_deps
spirv-core = { path = \"$base_root/spirv-core\" }"
  printf '%s\npub use spirv_core;\n' "$typical_lib" > "$work/typical-baseline/src/lib.rs"
  crates="$crates uses-baseline typical-baseline"
fi
for c in $crates; do (cd "$work/$c" && cargo fetch -q); done

results="$work/results.tsv"
: > "$results"
for round in $(seq 1 "$rounds"); do
  for mode in $modes; do
    case "$mode" in
      check) cmd="check" ;;
      debug) cmd="build" ;;
      release) cmd="build --release" ;;
      *) echo "unknown mode $mode" >&2; exit 1 ;;
    esac
    # Alternate the order from round to round.
    order="$crates"
    [ $((round % 2)) -eq 0 ] && order="$(echo "$crates" | tr ' ' '\n' | tac | tr '\n' ' ')"
    for c in $order; do
      dir="$work/$c"
      rm -rf "$dir/target"
      # shellcheck disable=SC2086
      /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" \
        cargo $cmd --quiet --timings --manifest-path "$dir/Cargo.toml" >/dev/null 2>&1
      read -r wall user sys rss < "$work/time.txt"
      own="$(python3 - "$dir/target/cargo-timings/cargo-timing.html" "$c" <<'EOF'
import json, re, sys
html = open(sys.argv[1]).read()
data = json.loads(re.search(r"const UNIT_DATA = (\[.*?\n\]);", html, re.S).group(1))
own = {"uses-spirv-core": {"spirv-core"}, "uses-rspirv": {"rspirv", "spirv"},
       "uses-rspirv2": {"rspirv2"},
       "uses-spirv-asm-macros": {"spirv-asm-macros"},
       "typical-base": set(), "typical-spirv-core": {"spirv-core"},
       "typical-rspirv": {"rspirv", "spirv"},
       "uses-baseline": {"spirv-core"}, "typical-baseline": {"spirv-core"}}[sys.argv[2]]
print(round(sum(u["duration"] for u in data
                if u["name"] in own and "build-script" not in u["target"]), 2))
EOF
)"
      cpu="$(python3 -c "print(round($user + $sys, 2))")"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$c" "$round" "$wall" "$cpu" "$rss" "$own" >> "$results"
      printf '%-8s %-16s round %s: wall %6ss  cpu %6ss  peak %7s KB  own units %6ss\n' \
        "$mode" "$c" "$round" "$wall" "$cpu" "$rss" "$own"
    done
  done
done

python3 - "$results" <<'EOF'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
med = {}
for mode, crate, _, wall, cpu, rss, own in rows:
    med.setdefault((mode, crate), []).append((float(wall), float(cpu), int(rss), float(own)))
print("\nmedians                         wall      cpu   peak MB   own units")
for (mode, crate), v in med.items():
    m = [statistics.median(x) for x in zip(*v)]
    med[(mode, crate)] = m
    print(f"{mode:<8} {crate:<18} {m[0]:7.2f}s {m[1]:7.2f}s {m[2]/1024:8.0f} {m[3]:9.2f}s")
print("\nratios spirv-core / peer        wall      cpu   peak      own units")
for mode in dict.fromkeys(k[0] for k in med):
    ours = med.get((mode, "uses-spirv-core"))
    if not ours:
        continue
    for peer in ("uses-rspirv", "uses-rspirv2", "uses-baseline"):
        p = med.get((mode, peer))
        if p:
            r = [a / b if b else float("nan") for a, b in zip(ours, p)]
            print(f"{mode:<8} vs {peer[5:]:<15} {r[0]:7.2f}x {r[1]:7.2f}x {r[2]:6.2f}x {r[3]:9.2f}x")
print("\nspirv-asm-macros (whole tree) / spirv-core alone   wall      cpu   peak")
for mode in dict.fromkeys(k[0] for k in med):
    a, b = med.get((mode, "uses-spirv-asm-macros")), med.get((mode, "uses-spirv-core"))
    if a and b:
        print(f"{mode:<8} {'':<40} {a[0] / b[0]:5.2f}x {a[1] / b[1]:7.2f}x {a[2] / b[2]:5.2f}x")
# The typical tree: what adding each crate costs on top of serde, serde_json and
# thiserror, per round (the base built in the same round), then medians.
inc = {}
for mode, crate, rnd, wall, cpu, rss, own in rows:
    if crate in ("typical-spirv-core", "typical-rspirv", "typical-baseline"):
        base = [r for r in rows if r[0] == mode and r[1] == "typical-base" and r[2] == rnd]
        if base:
            inc.setdefault((mode, crate), []).append(
                (float(wall) - float(base[0][3]), float(cpu) - float(base[0][4])))
if inc:
    print("\ntypical tree (serde derive, serde_json, thiserror): what adding each costs")
    print("                                 +wall     +cpu")
    for (mode, crate), v in inc.items():
        m = [statistics.median(x) for x in zip(*v)]
        inc[(mode, crate)] = m
        print(f"{mode:<8} {crate:<22} {m[0]:7.2f}s {m[1]:7.2f}s")
    print("\nratio spirv-core / peer, added cost     wall      cpu")
    for mode in dict.fromkeys(k[0] for k in inc):
        a = inc.get((mode, "typical-spirv-core"))
        for peer in ("typical-rspirv", "typical-baseline"):
            b = inc.get((mode, peer))
            if a and b:
                print(f"{mode:<8} vs {peer[8:]:<27} {a[0] / b[0]:5.2f}x {a[1] / b[1]:7.2f}x")
        b, r = inc.get((mode, "typical-baseline")), inc.get((mode, "typical-rspirv"))
        if b and r:
            print(f"{mode:<8} baseline vs rspirv {'':<19} {b[0] / r[0]:5.2f}x {b[1] / r[1]:7.2f}x")
EOF
