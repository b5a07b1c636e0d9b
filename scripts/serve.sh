#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), then serves the playground on
# http://127.0.0.1:8080 with live reload. Extra arguments go to `trunk serve`
# (e.g. `scripts/serve.sh --release`).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/.tools/node_modules/.bin:$PATH"

echo "[serve] http://127.0.0.1:8080/  (Ctrl-C stops)"
exec trunk serve --address 127.0.0.1 --port 8080 "$@"
