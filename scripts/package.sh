#!/usr/bin/env bash
# `cargo package --workspace` from a clean state: every crate is packaged and each
# package is built from its own .crate file, dependencies on workspace crates resolved
# to the packages just made (cargo's temporary local registry).
#
# Cargo unpacks that temporary registry's crates under $CARGO_HOME/registry/src/-HASH/
# and reuses an unpacked NAME-VERSION there if it exists, so a second run with the same
# version would verify against the first run's sources. The unpacked copies of local
# registries (the `-HASH` folders, never crates.io's) and target/package go first.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
rm -rf "$root/target/package"
for d in "$cargo_home"/registry/src/-* "$cargo_home"/registry/cache/-*; do
  [ -e "$d" ] && rm -rf "$d"
done
cd "$root"
cargo package --workspace "$@"
