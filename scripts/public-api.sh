#!/usr/bin/env bash
# The public-API snapshot: lists every public item of spirv-core, spirv-opt, spirv-asm,
# spirv-tools-compat, spirv-grammar-codegen and spirv-grammar-macros (all
# features, as docs.rs builds them) and compares the lists with the ones checked in
# under api/, so that every API change shows in review. On a difference it prints a
# unified diff and fails; after a deliberate change, rerun with BLESS=1 to rewrite
# api/*.txt, and commit them with the change.
#
#   scripts/public-api.sh           # compare (CI)
#   BLESS=1 scripts/public-api.sh   # rewrite api/*.txt
#
# api/CRATE.txt is the hand-written surface. The items under the modules the grammar
# macro emits (spirv_core::spv and each set in spirv_core::ext) are tens of thousands
# of lines that change only with the grammar or the macro: they go to
# api/spirv-core.generated.txt, checked the same way, so a hand-written change is not
# buried in them.
#
# The lists come from rustdoc's JSON output, which stable rustc writes when told
# RUSTC_BOOTSTRAP=1 (its format is unstable: a new rustc may change the format, which the
# lister reports, or the text of the list, which a re-bless takes up). The lister,
# scripts/public-api/ (its own workspace, on the public-api crate of cargo-public-api),
# prints cargo-public-api's text less blanket impls and the auto-trait impls rustdoc
# synthesizes (Send, Sync, Unpin …; a negative one such as `impl !Send` stays). Items
# hidden with #[doc(hidden)] are not listed. Everything builds in target/public-api,
# apart from the normal build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="$root/target/public-api"
cargo build --quiet --release --locked --manifest-path scripts/public-api/Cargo.toml
lister="$CARGO_TARGET_DIR/release/spirv-public-api-lister"
mkdir -p api
out="$CARGO_TARGET_DIR/listings"
rm -rf "$out"
mkdir -p "$out"
changed=0
# The generated modules of each crate, as the lister takes them (`::*`: every module in it).
generated_roots() {
  case "$1" in
    spirv-core) echo "spirv_core::spv spirv_core::ext::*" ;;
    *) echo "" ;;
  esac
}
header() {
  echo "# The public API of $1 (all features)$2, one item a line."
  echo "# Written by scripts/public-api.sh and checked by it in CI. Do not edit; after a deliberate"
  echo "# API change, rerun BLESS=1 scripts/public-api.sh and commit this file with the change."
}
# The library name of a package, where it is not the package's name with `_`.
lib_name() {
  case "$1" in
    spirv-tools-compat) echo "spirv_tools" ;;
    *) echo "${1//-/_}" ;;
  esac
}
for crate in spirv-core spirv-opt spirv-asm spirv-tools-compat spirv-grammar-codegen spirv-grammar-macros; do
  json="$CARGO_TARGET_DIR/doc/$(lib_name "$crate").json"
  rm -f "$json"
  RUSTC_BOOTSTRAP=1 cargo rustdoc --quiet -p "$crate" --lib --all-features \
    -- -Z unstable-options --output-format json
  raw="$out/$crate.raw"
  # shellcheck disable=SC2046 # the roots are words without spaces; `*` must not glob
  (set -f; "$lister" "$json" "$raw" $(generated_roots "$crate"))
  files="$crate.txt"
  if [ -n "$(generated_roots "$crate")" ]; then
    files="$files $crate.generated.txt"
  fi
  for file in $files; do
    listing="$out/$file"
    case "$file" in
      *.generated.txt)
        { header "$crate" ": the modules the grammar macro emits"
          cat "$raw.generated.txt"; } >"$listing" ;;
      *)
        if [ -n "$(generated_roots "$crate")" ]; then
          note=", hand-written (the generated modules: $crate.generated.txt)"
        else
          note=""
        fi
        { header "$crate" "$note"; cat "$raw.txt"; } >"$listing" ;;
    esac
    if [ "${BLESS:-0}" = 1 ]; then
      cp "$listing" "api/$file"
      echo "wrote api/$file ($(wc -l <"api/$file") lines)"
    elif [ ! -f "api/$file" ]; then
      echo "api/$file is missing" >&2
      changed=1
    elif ! diff -u --label "api/$file" --label "$file (now)" "api/$file" "$listing"; then
      changed=1
    fi
  done
done
# A listing no crate writes any more is stale.
for file in api/*.txt; do
  name="${file#api/}"
  if [ ! -f "$out/$name" ]; then
    if [ "${BLESS:-0}" = 1 ]; then
      rm "$file"
      echo "removed $file"
    else
      echo "$file is written by no crate" >&2
      changed=1
    fi
  fi
done
if [ "$changed" = 1 ]; then
  echo "public API changed; review the diff and rerun with BLESS=1" >&2
  exit 1
fi
[ "${BLESS:-0}" = 1 ] || echo "public API of the published crates unchanged (api/*.txt)"
