#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), then serves the whole playground on
# http://127.0.0.1:8080 — the main page with live reload, and the Pulsar (/pulsar/) and
# chaos (/chaos/) pages, the lesson editor (/editor/) and Kafka's files (/files/) — each rebuilt when a source file changes. Extra arguments go to
# the main page's `trunk serve` (e.g. `scripts/serve.sh --release`).
#
# Trunk serves one entry, so the other three are built by `trunk watch` into
# target/serve/{pulsar,chaos,editor,files}, served on 127.0.0.1:8081, and reached through the main
# server's proxies (Trunk.toml, [[proxy]]).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/.tools/node_modules/.bin:$PATH"

mkdir -p target/serve/pulsar target/serve/chaos target/serve/editor target/serve/files
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
trunk watch www/pulsar.html --dist target/serve/pulsar --public-url ./ &
pids+=($!)
trunk watch www/chaos.html --dist target/serve/chaos --public-url ./ &
pids+=($!)
trunk watch www/editor.html --dist target/serve/editor --public-url ./ &
pids+=($!)
trunk watch www/files.html --dist target/serve/files --public-url ./ &
pids+=($!)
python3 -m http.server 8081 --bind 127.0.0.1 --directory target/serve >/dev/null 2>&1 &
pids+=($!)

echo "[serve] http://127.0.0.1:8080/  (also /pulsar/, /chaos/, /editor/ and /files/; Ctrl-C stops)"
trunk serve --address 127.0.0.1 --port 8080 "$@"
