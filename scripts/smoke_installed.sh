#!/usr/bin/env bash
# The toolkit as a user installs it: build the sdist and from it the wheel, install the wheel into a fresh
# virtual environment outside the checkout, and from a folder outside the checkout run README's first command
# (without its editable install) and each command once.  Fails on the first thing that does not work.
# Usage: bash scripts/smoke_installed.sh   (needs the package index for `build` and the dependencies)
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
SERVER=""
trap '[ -z "$SERVER" ] || kill "$SERVER" 2>/dev/null; rm -rf "$WORK"' EXIT
step() { echo "smoke: $*"; }
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }

step "build the sdist and the wheel from it"
python3 -m venv "$WORK/build-venv"
"$WORK/build-venv/bin/python" -m pip install --quiet build
"$WORK/build-venv/bin/python" -m build --outdir "$WORK/dist" "$REPO" >"$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log" >&2; fail "the build"; }
WHEEL="$(ls "$WORK"/dist/*.whl)"
echo "  $(basename "$WHEEL"): $(du -k "$WHEEL" | cut -f1) KB"

step "install the wheel into a fresh virtual environment"
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install --quiet "$WHEEL"
export PATH="$WORK/venv/bin:$PATH" TOOLKIT_CACHE_DIR="$WORK/cache"
unset TOOLKIT_MAPS_DIR TOOLKIT_MODULES_DIR
mkdir "$WORK/run" && cd "$WORK/run"
PACKAGE="$(python -c 'import toolkit, os; print(os.path.dirname(toolkit.__file__))')"
[[ "$PACKAGE" == "$WORK/venv/"* ]] || fail "toolkit imported from $PACKAGE, not from the installed wheel"

step "toolkit --version"
VERSION="$(python -c 'from importlib.metadata import version; print(version("hex-wargame-toolkit"))')"
[ "$(toolkit --version)" = "toolkit $VERSION" ] || fail "toolkit --version printed '$(toolkit --version)', not 'toolkit $VERSION'"

step "toolkit maps"
toolkit maps | tee "$WORK/maps.txt"
for map_id in jerusalem-1948 siege-of-jerusalem no-prisoners example; do
  grep -q "^$map_id " "$WORK/maps.txt" || fail "toolkit maps does not list $map_id"
done

step "README's first command, after its install"
FIRST="$(awk '/^```sh$/ { getline; print; exit }' "$REPO/README.md")"
INSTALL="python -m pip install -e '.[test]' && "
[[ "$FIRST" == "$INSTALL"* ]] || fail "README's first command does not start with the install: $FIRST"
bash -euc "${FIRST#"$INSTALL"}"
for game in jerusalem-1948 siege-of-jerusalem no-prisoners; do
  [ -s "dist/$game.vmod" ] || fail "no dist/$game.vmod"
done
[ -s dist/los.png ] || fail "no dist/los.png"

step "toolkit vmod, los, moves, check on a bundled scenario"
if toolkit vmod no-such-game -o no-such-game.vmod 2>"$WORK/vmod.err"; then fail "toolkit vmod built an unknown game"; fi
grep -q "jerusalem-1948" "$WORK/vmod.err" || fail "toolkit vmod's refusal does not offer the bundled games: $(cat "$WORK/vmod.err")"
toolkit los example 0106 0508 --convention cross --json >/dev/null
cp "$REPO/modules/jerusalem-1948/scenarios/scenario-ii.yaml" .
toolkit moves scenario-ii.yaml j-plm-1 --svg moves.png >/dev/null
[ -s moves.png ] || fail "toolkit moves wrote no picture"
toolkit check scenario-ii.yaml

step "toolkit serve answers one request"
toolkit serve --port 0 >"$WORK/serve.log" 2>&1 &
SERVER=$!
URL=""
for _ in $(seq 150); do   # up to 30 s for the line with the address
  URL="$(sed -n 's/^toolkit viewer at \(http[^ ]*\) .*/\1/p' "$WORK/serve.log")"
  if [ -n "$URL" ] || ! kill -0 "$SERVER" 2>/dev/null; then break; fi
  sleep 0.2
done
[ -n "$URL" ] || { cat "$WORK/serve.log" >&2; fail "toolkit serve did not start"; }
python - "${URL}api/sources" <<'PY'
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=30) as answer:
    listing = json.dumps(json.load(answer))
missing = [g for g in ("jerusalem-1948", "siege-of-jerusalem", "no-prisoners") if g not in listing]
if missing:
    sys.exit(f"smoke: FAILED: /api/sources does not offer {missing}")
PY
kill "$SERVER" && wait "$SERVER" 2>/dev/null || true
SERVER=""
step "all passed"
