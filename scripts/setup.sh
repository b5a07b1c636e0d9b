#!/usr/bin/env bash
# Installs what the playground needs on a fresh machine, and skips what is already there.
# Used by scripts/serve.sh and scripts/test.sh (the README's two commands).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must equal the wasm-bindgen crate pinned in Cargo.toml.
WASM_BINDGEN_VERSION=$(grep -E '^wasm-bindgen = "=' Cargo.toml | sed -E 's/.*"=([0-9.]+)".*/\1/')
BINARYEN_VERSION=132.0.0
export PATH="$HOME/.cargo/bin:$PWD/.tools/node_modules/.bin:$PATH"

say() { echo "[setup] $*"; }

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

if ! command -v wasm-opt >/dev/null || ! wasm-opt --version 2>/dev/null | grep -qE 'version 1[2-9][0-9]'; then
  say "installing wasm-opt (npm binaryen $BINARYEN_VERSION) into .tools/"
  mkdir -p .tools
  (cd .tools && npm install --silent --no-audit --no-fund "binaryen@$BINARYEN_VERSION" >/dev/null)
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi

say "ready: $(trunk --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(wasm-opt --version), $(chromium --version)"
