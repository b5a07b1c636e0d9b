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
# 440 KB since the fault vocabulary, transaction.version 0/1/2 and the learner fixes landed
# (the site was 381 KB before them, 430 KB after). The issue "Fast where it counts" owns
# bringing it back under 400 KB; this budget only stops it from growing further unnoticed.
BUDGET_KB=${BUNDLE_BUDGET_KB:-440}
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
  ext=${rel##*.}
  raw=$(stat -c %s "$file")
  gz=$(gzip -9 -c "$file" | wc -c)
  total_raw=$((total_raw + raw))
  total_gz=$((total_gz + gz))
  kind_raw[$ext]=$((kind_raw[$ext] + raw))
  kind_gz[$ext]=$((kind_gz[$ext] + gz))
  rows+=$(printf '%-48s %12s %12s' "$rel" "$(kb "$raw")" "$(kb "$gz")")$'\n'
done < <(find "$DIST" -path "$DIST/.*" -prune -o -path "$DIST/pulsar" -prune -o -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) -print0 | sort -z)

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
# own budget: the main page never loads it. It carries the whole engine plus Pulsar's:
# 304.5 KB gzip when first built (2026-12-01), so 340 KB leaves room to grow.
if [ -f "$DIST/pulsar/index.html" ]; then
  echo
  echo "entry: $DIST/pulsar/ (the Pulsar site)"
  BUNDLE_BUDGET_KB=${PULSAR_BUNDLE_BUDGET_KB:-340} BUNDLE_OUT=target/bundle-size-pulsar.txt \
    "$0" "$DIST/pulsar"
fi
