#!/usr/bin/env bash
# The public-API snapshot: lists every public item of spirv-core, spirv-opt and spirv-asm (all
# features, as docs.rs builds them) and compares the lists with the ones checked in
# under api/, so that every API change shows in review. On a difference it prints a
# unified diff and fails; after a deliberate change, rerun with BLESS=1 to rewrite
# api/spirv-core.txt, api/spirv-opt.txt and api/spirv-asm.txt, and commit them with the change.
#
#   scripts/public-api.sh           # compare (CI)
#   BLESS=1 scripts/public-api.sh   # rewrite api/*.txt
#
# The lists come from rustdoc's JSON output, which stable rustc writes when told
# RUSTC_BOOTSTRAP=1 (its format is unstable: a new rustc may change the format, which the
# lister reports, or the text of the list, which a re-bless takes up). The lister,
# scripts/public-api/ (its own workspace, on the public-api crate of cargo-public-api),
# prints cargo-public-api's text less blanket impls. Items hidden with #[doc(hidden)]
# are not listed. Everything builds in target/public-api, apart from the normal build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="$root/target/public-api"
cargo build --quiet --release --locked --manifest-path scripts/public-api/Cargo.toml
lister="$CARGO_TARGET_DIR/release/spirv-public-api-lister"
mkdir -p api
changed=0
for crate in spirv-core spirv-opt spirv-asm; do
  json="$CARGO_TARGET_DIR/doc/${crate//-/_}.json"
  rm -f "$json"
  RUSTC_BOOTSTRAP=1 cargo rustdoc --quiet -p "$crate" --lib --all-features \
    -- -Z unstable-options --output-format json
  listing="$CARGO_TARGET_DIR/$crate.txt"
  {
    echo "# The public API of $crate (all features), one item a line: written by"
    echo "# scripts/public-api.sh, checked by it in CI. Do not edit; after a deliberate API"
    echo "# change, rerun BLESS=1 scripts/public-api.sh and commit this file with the change."
    "$lister" "$json"
  } >"$listing"
  if [ "${BLESS:-0}" = 1 ]; then
    cp "$listing" "api/$crate.txt"
    echo "wrote api/$crate.txt ($(wc -l <"api/$crate.txt") lines)"
  elif ! diff -u --label "api/$crate.txt" --label "$crate (now)" "api/$crate.txt" "$listing"; then
    changed=1
  fi
done
if [ "$changed" = 1 ]; then
  echo "public API changed; review the diff and rerun with BLESS=1" >&2
  exit 1
fi
[ "${BLESS:-0}" = 1 ] || echo "public API of spirv-core, spirv-opt and spirv-asm unchanged (api/*.txt)"
