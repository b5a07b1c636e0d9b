#!/usr/bin/env bash
# Prints the raw and gzip sizes of the wasm, js and css that the built site (dist/) loads,
# writes the same table to target/bundle-size.txt, and fails if the gzip total is over
# the budget. Run after `trunk build --release` (scripts/test.sh does).
#
# Counted: every .wasm/.js/.css in dist/ (wasm-bindgen snippets included), except copies
# under dist/static/ that index.html does not load (trunk already ships style.css hashed),
# and trunk's hidden staging folder (dist/.stage, left behind by a failed build).
set -euo pipefail
cd "$(dirname "$0")/.."

DIST=${1:-dist}
# The budget sits just above the measured size, so the bundle cannot grow unnoticed;
# the goal is 400 KB in total and 300 KB for what the first page needs. How it grew,
# where the bytes go and what was tried: docs/size.md.
BUDGET_KB=${BUNDLE_BUDGET_KB:-519}
BUDGET=$((BUDGET_KB * 1024))
OUT=${BUNDLE_OUT:-target/bundle-size.txt}

if [ ! -f "$DIST/index.html" ]; then
  echo "bundle-size: $DIST/index.html not found; run 'trunk build --release' first" >&2
  exit 1
fi

kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }

mkdir -p target
total_raw=0
total_gz=0
declare -A kind_raw=([wasm]=0 [js]=0 [css]=0)
declare -A kind_gz=([wasm]=0 [js]=0 [css]=0)
rows=""

while IFS= read -r -d '' file; do
  rel=${file#"$DIST"/}
  case "$rel" in
    static/*) grep -qF "$rel" "$DIST/index.html" || continue ;;
  esac
  # BUNDLE_ONLY / BUNDLE_SKIP (globs on the path under $DIST): one part of a site.
  # shellcheck disable=SC2254
  case "$rel" in ${BUNDLE_SKIP:-/}) continue ;; esac
  # shellcheck disable=SC2254
  case "$rel" in ${BUNDLE_ONLY:-*}) ;; *) continue ;; esac
  ext=${rel##*.}
  raw=$(stat -c %s "$file")
  gz=$(gzip -9 -c "$file" | wc -c)
  total_raw=$((total_raw + raw))
  total_gz=$((total_gz + gz))
  kind_raw[$ext]=$((kind_raw[$ext] + raw))
  kind_gz[$ext]=$((kind_gz[$ext] + gz))
  rows+=$(printf '%-48s %12s %12s' "$rel" "$(kb "$raw")" "$(kb "$gz")")$'\n'
done < <(find "$DIST" -path "$DIST/.*" -prune -o -path "$DIST/pulsar" -prune -o -path "$DIST/chaos" -prune -o -path "$DIST/editor" -prune -o -path "$DIST/files" -prune -o -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) -print0 | sort -z)

{
  printf '%-48s %12s %12s\n' "file (dist/)" "raw" "gzip -9"
  printf '%s' "$rows"
  printf -- '-%.0s' {1..74}; echo
  for ext in wasm js css; do
    printf '%-48s %12s %12s\n' "all .$ext" "$(kb "${kind_raw[$ext]}")" "$(kb "${kind_gz[$ext]}")"
  done
  printf '%-48s %12s %12s\n' "total" "$(kb "$total_raw")" "$(kb "$total_gz")"
  printf 'budget: %s KB gzip total\n' "$BUDGET_KB"
} | tee "$OUT"

# Where the bytes go: twiggy on cargo's wasm (it keeps function names; the shipped one is
# the same code after wasm-bindgen and wasm-opt, ≈ 15% smaller). Informational only.
WASM=${BUNDLE_WASM:-target/wasm32-unknown-unknown/wasm-release/eos.wasm}
TWIGGY=$(command -v twiggy || echo "$HOME/.cargo/bin/twiggy")
if [ -x "$TWIGGY" ] && [ -f "$WASM" ]; then
  {
    echo
    echo "where the bytes go: twiggy on $WASM"
    echo "  (before wasm-bindgen and wasm-opt; code and data, no custom sections)"
    "$TWIGGY" top -n 100000 -f csv "$WASM" | awk -F, '
      NR == 1 { next }
      {
        size = $(NF - 3)
        name = $1
        for (i = 2; i <= NF - 4; i++) name = name "," $i
        gsub(/^"|"$/, "", name)
        gsub(/""/, "\"", name)
        sub(/::h[0-9a-f]+$/, "", name)
        # Custom sections and wasm-bindgen'"'"'s descriptor functions never reach dist/.
        if (name ~ /custom section|function names|__wbindgen_describe/) next
        total += size
        if (name ~ /^data segment|^data\[/) group = "(data: strings, tables)"
        else if (name ~ /drop_in_place/) group = "(drop glue)"
        else if (name ~ /^<T as /) group = "(blanket impls)"
        # A function component'"'"'s body is inlined into yew'"'"'s generic view(): count it as ours.
        else if (name ~ /CompStateInner<COMP> as .*::view$|FunctionProvider>::run/) group = "eos_playground::ui (component bodies)"
        else {
          g = name
          sub(/^<+/, "", g)
          sub(/^&(mut )?/, "", g)
          n = split(g, parts, "::")
          group = parts[1]
          if (group == "eos_playground" && n > 2) group = group "::" parts[2]
          sub(/\[[0-9a-f]+\]$/, "", group)
        }
        by[group] += size
        rows[++count] = sprintf("%10d  %s", size, substr(name, 1, 100))
      }
      END {
        printf "%10d  bytes in %d items\n", total, count
        print "  by crate / engine module (top 16):"
        for (g in by) printf "%10d  %5.1f%%  %s\n", by[g], 100 * by[g] / total, g | "sort -rn | head -16"
        close("sort -rn | head -16")
        print "  largest items (top 20):"
        for (i = 1; i <= count; i++) print rows[i] | "sort -rn | head -20"
        close("sort -rn | head -20")
      }'
  } | tee -a "$OUT"
fi

if [ "${kind_raw[wasm]}" -eq 0 ]; then
  echo "bundle-size: FAILED: no .wasm file in $DIST" >&2
  exit 1
fi
if [ "$total_gz" -gt "$BUDGET" ]; then
  echo "bundle-size: FAILED: gzip total $(kb "$total_gz") is over the $BUDGET_KB KB budget" | tee -a "$OUT" >&2
  exit 1
fi
echo "bundle-size: ok ($(kb "$total_gz") of $BUDGET_KB KB gzip)"

# The Pulsar site (www/pulsar.html, built into dist/pulsar/) is a separate entry with its
# own budget: the main page never loads it. It carries the whole engine plus Pulsar's;
# its lessons' texts are fetched when shown, as on the main page (not counted here);
# docs/size.md has how it grew.
if [ -f "$DIST/pulsar/index.html" ]; then
  echo
  echo "entry: $DIST/pulsar/ (the Pulsar site)"
  BUNDLE_BUDGET_KB=${PULSAR_BUNDLE_BUDGET_KB:-467} BUNDLE_OUT=target/bundle-size-pulsar.txt \
    "$0" "$DIST/pulsar"
fi

# The chaos site (www/chaos.html, built into dist/chaos/): the page's wasm, and its Web
# Worker's (eos-chaos-worker*, fetched only when a search starts), both with the checker.
# The page (what opening it costs) and the worker (built for speed, what the first Start
# costs) have a budget each; the main page loads neither. docs/size.md has how they grew.
if [ -f "$DIST/chaos/index.html" ]; then
  echo
  echo "entry: $DIST/chaos/ (the chaos site's page, without its worker)"
  BUNDLE_BUDGET_KB=${CHAOS_BUNDLE_BUDGET_KB:-94} BUNDLE_OUT=target/bundle-size-chaos.txt BUNDLE_WASM=none \
    BUNDLE_SKIP='eos-chaos-worker*' "$0" "$DIST/chaos"
  echo
  echo "entry: $DIST/chaos/ (the chaos site's Web Worker, fetched when a search starts)"
  BUNDLE_BUDGET_KB=${CHAOS_WORKER_BUDGET_KB:-419} BUNDLE_OUT=target/bundle-size-chaos-worker.txt BUNDLE_WASM=none \
    BUNDLE_ONLY='eos-chaos-worker*' "$0" "$DIST/chaos"
fi

# The lesson editor (www/editor.html, built into dist/editor/): the main page's engine,
# lesson player and panels plus the editor, for course authors; the main page never
# loads it. docs/size.md has its figures.
if [ -f "$DIST/editor/index.html" ]; then
  echo
  echo "entry: $DIST/editor/ (the lesson editor)"
  BUNDLE_BUDGET_KB=${EDITOR_BUNDLE_BUDGET_KB:-513} BUNDLE_OUT=target/bundle-size-editor.txt BUNDLE_WASM=none \
    "$0" "$DIST/editor"
fi

# Kafka's files (www/files.html, built into dist/files/): the inspector, the zip reader
# and writer and the partition views, for learners who open their own Kafka folders;
# the main page never loads it. docs/size.md has its figures.
if [ -f "$DIST/files/index.html" ]; then
  echo
  echo "entry: $DIST/files/ (Kafka's files)"
  BUNDLE_BUDGET_KB=${FILES_BUNDLE_BUDGET_KB:-319} BUNDLE_OUT=target/bundle-size-files.txt BUNDLE_WASM=none \
    "$0" "$DIST/files"
fi
