#!/usr/bin/env bash
# Installs what the playground needs on a fresh machine, and skips what is already there.
# Used by scripts/serve.sh and scripts/test.sh (the README's two commands).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must equal the wasm-bindgen crate pinned in Cargo.toml.
WASM_BINDGEN_VERSION=$(grep -E '^wasm-bindgen = "=' Cargo.toml | sed -E 's/.*"=([0-9.]+)".*/\1/')
# Trunk.toml pins wasm_opt = "version_132": the same major version as this npm package.
BINARYEN_VERSION=132.0.0
# Minifies the wasm-bindgen JS glue after each release build (scripts/minify-js.mjs).
TERSER_VERSION=5.51.4
export PATH="$HOME/.cargo/bin:$PWD/.tools/node_modules/.bin:$PATH"

say() { echo "[setup] $*"; }
die() { echo "[setup] ERROR: $*" >&2; exit 1; }

[ -n "$WASM_BINDGEN_VERSION" ] || die 'Cargo.toml must pin the wasm-bindgen crate exactly: wasm-bindgen = "=X.Y.Z"'
TRUNK_WASM_BINDGEN=$(grep -E '^wasm_bindgen *= *"' Trunk.toml | sed -E 's/.*"([0-9.]+)".*/\1/')
[ "$TRUNK_WASM_BINDGEN" = "$WASM_BINDGEN_VERSION" ] ||
  die "Trunk.toml [tools] wasm_bindgen = \"$TRUNK_WASM_BINDGEN\" differs from Cargo.toml's wasm-bindgen =$WASM_BINDGEN_VERSION"
command -v npm >/dev/null || die "node and npm are needed (for wasm-opt and the e2e tests)"

if ! rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (compiles once, ~10 minutes)"
  cargo install --locked "trunk@$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if ! wasm-opt --version 2>/dev/null | grep -qF "version ${BINARYEN_VERSION%%.*} "; then
  say "installing wasm-opt (npm binaryen $BINARYEN_VERSION) into .tools/"
  mkdir -p .tools
  # A package.json of its own, so npm installs here and not into a parent folder.
  [ -f .tools/package.json ] || echo '{ "private": true }' >.tools/package.json
  (cd .tools && npm install --no-audit --no-fund --loglevel=error --save-exact "binaryen@$BINARYEN_VERSION" >/dev/null)
fi

if [ "$(node -p "require('./.tools/node_modules/terser/package.json').version" 2>/dev/null)" != "$TERSER_VERSION" ]; then
  say "installing terser $TERSER_VERSION into .tools/"
  mkdir -p .tools
  [ -f .tools/package.json ] || echo '{ "private": true }' >.tools/package.json
  (cd .tools && npm install --no-audit --no-fund --loglevel=error --save-exact "terser@$TERSER_VERSION" >/dev/null)
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing chromium and chromium-driver"
  [ "$(id -u)" = 0 ] || die "installing chromium needs root: sudo apt-get install chromium chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# Korean and Thai glyphs for the e2e screenshots in those languages (no tofu boxes):
# Noto CJK and the TLWG Thai fonts. Checked by package, so a rerun installs nothing.
if ! dpkg -s fonts-noto-cjk fonts-thai-tlwg >/dev/null 2>&1; then
  say "installing fonts-noto-cjk and fonts-thai-tlwg"
  [ "$(id -u)" = 0 ] || die "installing fonts needs root: sudo apt-get install fonts-noto-cjk fonts-thai-tlwg"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends fonts-noto-cjk fonts-thai-tlwg >/dev/null
fi

# The cmi5 package's end-to-end test (tests/e2e/lms-cmi5.test.mjs) sends its statements
# to a real LRS: Ralph, from PyPI, in a virtualenv of its own under .tools/ralph (only its
# API: the `lrs` extra, and requests, which Ralph's API imports without declaring it):
# ~35 s and 86 MB on a fresh machine. python3 also writes the LMS zips (package-lms.sh).
RALPH_VERSION=5.1.0
if [ "$(.tools/ralph/bin/python -c 'import importlib.metadata as m; print(m.version("ralph-malph"))' 2>/dev/null)" != "$RALPH_VERSION" ]; then
  say "installing ralph-malph $RALPH_VERSION (an LRS for the cmi5 test) into .tools/ralph"
  command -v python3 >/dev/null || die "python3 is needed (the LMS packages and their tests)"
  if ! python3 -c 'import ensurepip' 2>/dev/null; then
    [ "$(id -u)" = 0 ] || die "python3's venv module is needed: sudo apt-get install python3-venv"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq python3-venv >/dev/null
  fi
  rm -rf .tools/ralph
  python3 -m venv .tools/ralph
  .tools/ralph/bin/pip install --quiet --disable-pip-version-check \
    "ralph-malph[lrs]==$RALPH_VERSION" "requests==2.32.3" >/dev/null
fi

# The peer test of `eos inspect` and `--export` (tests/peers/kafka_python.py) builds and
# reads Kafka partition folders with kafka-python's record classes: kafka-python and the
# codecs its batch builder compresses with (lz4, python-snappy, zstandard), in a
# virtualenv of their own under .tools/kpy (~10 s and 30 MB on a fresh machine).
KAFKA_PYTHON_VERSION=3.0.12
if [ "$(.tools/kpy/bin/python -c 'import lz4.frame, snappy, zstandard, importlib.metadata as m; print(m.version("kafka-python"))' 2>/dev/null)" != "$KAFKA_PYTHON_VERSION" ]; then
  say "installing kafka-python $KAFKA_PYTHON_VERSION (a peer for eos inspect) into .tools/kpy"
  rm -rf .tools/kpy
  python3 -m venv .tools/kpy
  .tools/kpy/bin/pip install --quiet --disable-pip-version-check \
    "kafka-python==$KAFKA_PYTHON_VERSION" "lz4==4.4.5" "python-snappy==0.7.3" "zstandard==0.25.0" >/dev/null
fi

# (Debian's chromium wrapper prints a harmless shell warning on stderr: hidden here.)
say "ready: $(trunk --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(wasm-opt --version), $(chromium --version 2>/dev/null), ralph-malph $RALPH_VERSION, kafka-python $KAFKA_PYTHON_VERSION"
