#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), then runs every test suite in order and
# stops at the first failure. The last line is always the summary `N passed, N failed`.
#
# Suites: format, clippy (native and wasm32), native tests (incl. doc tests), the
# kafka-python peer of `eos inspect`, wasm tests in
# headless Chromium, the release build of the site (dist/), its bundle size, and the
# end-to-end tests (tests/e2e, Playwright driving Debian's Chromium against dist/).
# Benchmarks run once each in criterion's quick mode (full figures: `cargo bench`), then
# 10,000 seeded chaos schedules with the checker, optimised.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
summary() { echo "$passed passed, $failed failed"; }

if ! scripts/setup.sh; then
  echo "test.sh: FAILED: scripts/setup.sh could not install the tools (see above)"
  failed=1
  summary
  exit 1
fi

export PATH="$HOME/.cargo/bin:$PWD/.tools/node_modules/.bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# Also set in .cargo/config.toml [env]; repeated here so the runner finds them either way.
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/webdriver.json"
export WASM_BINDGEN_USE_BROWSER=1
# Give a slow first Chromium start (cold cache, 2 cores) more than the default 5 s.
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT="${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-30}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
# ChromeDriver sessions leave Chromium profile folders in $TMPDIR; keep them under target/
# and start each run with an empty one.
export TMPDIR="$PWD/target/tmp"
rm -rf "$TMPDIR" && mkdir -p "$TMPDIR"

# suite NAME COMMAND...: runs one suite; on failure prints what failed and exits.
suite() {
  local name=$1
  shift
  local start=$SECONDS
  echo
  echo "=== [$name] $*"
  if "$@"; then
    passed=$((passed + 1))
    echo "=== [$name] ok ($((SECONDS - start)) s)"
  else
    local rc=$?
    failed=$((failed + 1))
    echo
    echo "test.sh: FAILED: $name (exit $rc): $*"
    summary
    exit 1
  fi
}

e2e() {
  # npm ci also when a dependency of package.json is missing (one added since).
  if [ ! -d tests/e2e/node_modules ] || ! (cd tests/e2e && node -e '
    const p = require("./package.json");
    const deps = Object.keys({ ...p.dependencies, ...p.devDependencies });
    process.exit(deps.every((d) => require("fs").existsSync("node_modules/" + d)) ? 0 : 1);'); then
    (cd tests/e2e && npm ci --no-audit --no-fund) || return 1
  fi
  (cd tests/e2e && node --test --test-reporter=spec --test-concurrency=1 ./*.test.mjs)
}

suite "format" cargo fmt --all -- --check
suite "clippy (native, all targets)" cargo clippy --all-targets -- -D warnings
# The UI only compiles for wasm32, so lint it there too (benches are native-only).
suite "clippy (wasm32)" cargo clippy --target wasm32-unknown-unknown --lib --bins --tests -- -D warnings
suite "native tests (incl. doc tests)" cargo test
# kafka-python as a peer: partition folders it builds (two segments, transactions, every
# codec) read by `eos inspect`, and eos's `--export` read back by kafka-python (seconds).
suite "kafka-python peer (eos inspect, --export)" sh -c 'cargo build --bin eos && .tools/kpy/bin/python tests/peers/kafka_python.py target/debug/eos'
# Criterion's test mode: every bench case runs once, so the benches never rot (figures
# come from full `cargo bench` runs).
suite "benches (quick mode)" cargo bench -- --test
# With every break switch off, 10,000 seeded chaos schedules of 50 steps find
# no violation (optimised, reusing the benches' build; ≈ 20 s of running).
suite "chaos: 10,000 schedules, no switch (optimised)" cargo test --profile bench --test checker ten_thousand -- --ignored
# lib, bin and tests/ only: doc tests and benches are native.
suite "wasm tests (headless Chromium)" cargo test --target wasm32-unknown-unknown --lib --bins --tests
suite "release build (trunk -> dist/)" trunk build --release
# The Pulsar site: its own entry and wasm (feature `pulsar`), linked from the main nav.
suite "release build, Pulsar site (trunk -> dist/pulsar/)" trunk build www/pulsar.html --release --dist dist/pulsar
# The chaos search: its own entry, a page and a Web Worker (feature `checker`), linked
# from the main nav.
suite "release build, chaos site (trunk -> dist/chaos/)" trunk build www/chaos.html --release --dist dist/chaos
# The lesson editor: its own entry and wasm (the main page's lesson player and panels
# beside the scenario text), linked from the course.
suite "release build, lesson editor (trunk -> dist/editor/)" trunk build www/editor.html --release --dist dist/editor
# Kafka's files: its own entry and wasm (the inspector, zip and the partition views),
# linked from the course and the limits page.
suite "release build, Kafka's files (trunk -> dist/files/)" trunk build www/files.html --release --dist dist/files
suite "bundle size" scripts/bundle-size.sh
# The LMS packages of the whole course (SCORM 1.2 and cmi5) from dist/, each manifest
# parsed back and checked; the e2e tests (lms-*.test.mjs) then play them in scorm-again
# and against Ralph.
suite "LMS packages (dist-lms/)" scripts/package-lms.sh
suite "e2e (Playwright, dist/)" e2e

summary
