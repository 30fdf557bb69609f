#!/bin/sh
# Runs plankit's runtime-level check and diff against the runtime with each
# seeded mistake, writing everything under OUT (default /tmp/node-runtime-mistakes):
#   OUT/NAME/check.json, check.txt  plankit check --level runtime --json
#   OUT/NAME/diff.txt, diff/        plankit diff --level runtime (defaults)
#   OUT/NAME/diff-aside.txt, diff-aside/  the same with the free points plankit
#                                   trips on laid aside (--lay-aside ...)
# Usage: run-mistakes.sh PLANKIT [OUT] [NAME...]
set -u
PLANKIT=$1; shift
OUT=${1:-/tmp/node-runtime-mistakes}; [ $# -gt 0 ] && shift
HERE=$(cd "$(dirname "$0")/.." && pwd)
ASIDE="--lay-aside own-tool --lay-aside own-section --lay-aside notice-words --lay-aside fault-scope --lay-aside unload-withdraws-notice --lay-aside unloaded-header --plan-arg trimmed"
NAMES=${*:-$(node -e 'import("'"$HERE"'/lib/mistakes.mjs").then(m => console.log(Object.keys(m.MISTAKES).join(" ")))')}
for m in $NAMES; do
  d=$OUT/$m; rm -rf "$d"; mkdir -p "$d"
  "$PLANKIT" check --level runtime --adapter "node $HERE/runtime.mjs --mistake $m" --json "$d/check.json" --counterexamples "$d/check-cex" > "$d/check.txt" 2>&1
  echo "check exit $?" >> "$d/check.txt"
  "$PLANKIT" diff --level runtime --adapter "node $HERE/runtime.mjs --mistake $m" --out "$d/diff" > "$d/diff.txt" 2>&1
  echo "diff exit $?" >> "$d/diff.txt"
  "$PLANKIT" diff --level runtime --adapter "node $HERE/runtime.mjs --mistake $m $ASIDE" --out "$d/diff-aside" > "$d/diff-aside.txt" 2>&1
  echo "diff exit $?" >> "$d/diff-aside.txt"
  echo "$m done"
done
