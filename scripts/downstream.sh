#!/usr/bin/env bash
# Builds and runs examples/downstream against the packaged crates, as a user of the
# published crates would: every workspace crate is packaged (`cargo package
# --workspace`, which builds each package from its own .crate file), the .crate files
# are unpacked, and the example's crates.io dependencies are patched to those unpacked
# packages, never to the workspace folders. `scripts/package.sh` does the packaging.
#
#   scripts/downstream.sh            # package, then build and run the example
#   PACKAGED=1 scripts/downstream.sh # reuse target/pkg/package/*.crate (scripts/package.sh)
#   scripts/downstream.sh --checkout # build and run it from the checkout, as `cargo run`
#                                    # in examples/downstream does (its .cargo/config.toml)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ "${1:-}" = --checkout ]; then
  cd examples/downstream
  export CARGO_TARGET_DIR="$root/target/downstream-checkout"
  cargo run --quiet
  # Every toolkit crate comes from the workspace's folders.
  if ! cargo tree --prefix none | grep -qF "($root/spirv-core)"; then
    echo "the example did not resolve spirv-core to the checkout" >&2
    exit 1
  fi
  exit 0
fi
if [ "${PACKAGED:-0}" != 1 ]; then
  scripts/package.sh --quiet
fi
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
packages="$root/target/pkg/package"
unpacked="$packages/unpacked"
rm -rf "$unpacked"
mkdir -p "$unpacked"
patches=()
for name in spirv-grammar-data spirv-grammar-codegen spirv-grammar-macros spirv-core spirv-opt spirv-asm spirv-asm-macros; do
  crate="$packages/$name-$version.crate"
  [ -f "$crate" ] || { echo "missing $crate" >&2; exit 1; }
  tar -xzf "$crate" -C "$unpacked"
  patches+=(--config "patch.crates-io.$name.path=\"$unpacked/$name-$version\"")
done
cd examples/downstream
export CARGO_TARGET_DIR="$root/target/downstream"
cargo run --quiet "${patches[@]}"
# What the example depends on comes from the packages, not from the workspace.
if cargo tree "${patches[@]}" --prefix none | grep -F "$root/spirv-"; then
  echo "the example resolved a workspace folder" >&2
  exit 1
fi
