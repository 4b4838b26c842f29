#!/usr/bin/env bash
# `cargo package --workspace` from a clean state: every crate is packaged and each
# package is built from its own .crate file, dependencies on workspace crates resolved
# to the packages just made (cargo's temporary local registry).
#
# The packages land in target/pkg/package/. Cargo treats that temporary registry like
# crates.io: it reuses an unpacked NAME-VERSION under $CARGO_HOME/registry/src/-HASH/
# and a compiled one in the target folder, without looking at their contents, so a
# second run with the same version would verify against the first run's code. So the
# unpacked copies of local registries (the `-HASH` folders, never crates.io's) go first,
# and the build uses a target folder of its own, emptied first.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
export CARGO_TARGET_DIR="$root/target/pkg"
rm -rf "$CARGO_TARGET_DIR"
for d in "$cargo_home"/registry/src/-* "$cargo_home"/registry/cache/-*; do
  [ -e "$d" ] && rm -rf "$d"
done
cd "$root"
# spirv-tools-dropin is a test package (`publish = false`): it proves the drop-in from
# the checkout and has nothing to package.
cargo package --workspace --exclude spirv-tools-dropin "$@"
