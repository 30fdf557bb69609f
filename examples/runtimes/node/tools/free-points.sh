#!/bin/sh
# For each free point plankit's runtime-level diff trips on, runs
# `plankit diff --level runtime` (defaults otherwise) with every other such
# point laid aside, so that the divergence it reports is that point's alone.
# Writes OUT/NAME/{command.txt,diff.txt,trace/}. Usage: free-points.sh PLANKIT [OUT] [NAME...]
set -u
PLANKIT=$1; shift
OUT=${1:-/tmp/node-runtime-free-points}; [ $# -gt 0 ] && shift
HERE=$(cd "$(dirname "$0")/.." && pwd)
ALL="own-tool own-section notice-words fault-scope unload-withdraws-notice unloaded-header plan-arg"
for name in ${*:-$ALL}; do
  args=""
  for other in $ALL; do
    [ "$other" = "$name" ] && continue
    if [ "$other" = plan-arg ]; then args="$args --plan-arg trimmed"; else args="$args --lay-aside $other"; fi
  done
  d=$OUT/$name; rm -rf "$d"; mkdir -p "$d"
  cmd="$PLANKIT diff --level runtime --adapter \"node $HERE/runtime.mjs$args\" --out $d/trace"
  echo "$cmd" > "$d/command.txt"
  eval "$cmd" > "$d/diff.txt" 2>&1
  echo "exit $?" >> "$d/diff.txt"
  echo "$name: $(grep -m1 '^divergence' "$d/diff.txt" || grep -m1 'no divergence' "$d/diff.txt")"
done
