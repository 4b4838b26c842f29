#!/usr/bin/env bash
# The drill for "a grammar update needs no hand edits": copies the workspace to a
# temporary folder, vendors a newer grammar there with grammar/update.sh --from, runs the
# grammar refresh of docs/macros.md (BLESS=1 … --test grammar expansion::), then the README's test command, the
# whole workspace's suite (`cargo test --workspace`), and fails if any test fails,
# naming every one that did. The workspace itself is not touched.
#
#   scripts/newer-grammar.sh                       # the newer grammar the fixture describes
#   scripts/newer-grammar.sh --from DIR|FILE       # a real SPIRV-Headers checkout or archive
#
# The fixture's grammar is the vendored one plus tests/fixtures/newer-grammar/moves.json
# (an added instruction, enumerant, mask bit and operand kind, renames, aliases turned
# canonical, a grown and a changed operand list, a new extended set), built by apply.py
# there.
# Environment: SPIRV_CORPUS, SPIRV_VALSUITE and SPIRV_TOOLS_BIN as for the tests (the corpus
# and spirv-val's unit tests default to the workspace's ../shared/corpus and
# ../shared/valsuite); SPIRV_TESTS_REQUIRE=1 makes a missing one a
# failure; NEWER_GRAMMAR_TARGET=dir is the cargo target folder (default
# target/newer-grammar, kept between runs so that dependencies build once); KEEP=1 keeps
# the temporary folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
from=""
case "${1:-}" in
  --from) from="$(cd "$(dirname "${2:?usage: $0 [--from DIR|FILE]}")" && pwd)/$(basename "$2")" ;;
  "") ;;
  *) echo "usage: $0 [--from DIR|FILE]" >&2; exit 1 ;;
esac
tmp="$(mktemp -d)"
if [ -n "${KEEP:-}" ]; then echo "keeping $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
ws="$tmp/workspace"
mkdir "$ws"

# The workspace as git sees it (committed or not, ignored files left out; without git,
# all but target/), with fresh modification times: cargo must not take the copy's files
# for the ones it built before.
status() { git -C "$root" status --porcelain 2>/dev/null || true; }
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$root" && git ls-files -z --cached --others --exclude-standard |
    tar -cf - --null --no-recursion --ignore-failed-read -T -) | tar -xmf - -C "$ws"
else
  tar -cf - -C "$root" --exclude=./target . | tar -xmf - -C "$ws"
fi
before="$(status)"

if [ -z "$from" ]; then
  python3 "$ws/tests/fixtures/newer-grammar/apply.py" "$ws/grammar" "$tmp/newer-grammar-fixture"
  from="$tmp/newer-grammar-fixture"
fi
"$ws/grammar/update.sh" --from "$from"

export CARGO_TARGET_DIR="${NEWER_GRAMMAR_TARGET:-$root/target/newer-grammar}"
if [ -z "${SPIRV_CORPUS:-}" ] && [ -d "$root/../shared/corpus" ]; then
  SPIRV_CORPUS="$(cd "$root/../shared/corpus" && pwd)"
  export SPIRV_CORPUS
fi
if [ -z "${SPIRV_VALSUITE:-}" ] && [ -d "$root/../shared/valsuite" ]; then
  SPIRV_VALSUITE="$(cd "$root/../shared/valsuite" && pwd)"
  export SPIRV_VALSUITE
fi
log="$tmp/test.log"
run() {
  echo "+ $*"
  if ! (cd "$ws" && "$@") >"$log" 2>&1; then
    # The failing tests and their messages, not the whole suite's output.
    if grep -qE '^test .* FAILED$|^error(\[|:)' "$log"; then
      grep -E '^error(\[|:)' -A 12 "$log" | head -n 200 || true
      # Each failing test binary's `failures:` block: the tests' output and messages.
      awk '/^failures:$/ { show = 1 } show { print } /^test result:/ { show = 0 }' "$log" | head -n 400
      echo "failed tests:"
      grep -E '^test .* FAILED$' "$log" | sort -u | sed 's/^/  /'
      grep -E '^error: [0-9]+ targets? failed' -A 40 "$log" || true
    else
      tail -n 100 "$log"
    fi
    [ -n "${KEEP:-}" ] && echo "whole log: $log"
    echo "newer-grammar drill: FAILED: $*" >&2
    exit 1
  fi
  # What the tests left out or renamed, and how much they compared.
  grep -E "unknown to SPIRV-Tools|renamed|identical|file-name stem" "$log" | sort -u || true
}
# --workspace, as the next command: the same features, so one build serves both.
run env BLESS=1 cargo test --workspace --test grammar expansion::
# The README's command, with every test binary run even after one fails (and the
# passing tests' output shown, for the counts above).
run cargo test --workspace --no-fail-fast -- --show-output

if [ "$(status)" != "$before" ]; then
  echo "newer-grammar drill: FAILED: the workspace changed under $root" >&2
  exit 1
fi
echo "newer-grammar drill: passed ($(sed -n 's/^Version: //p' "$ws/grammar/README.md"))"
