#!/usr/bin/env bash
# The full check (features, then 12 properties x 100 cases) run several ways
# back to back, for the ratios of docs/performance.md: in-process, through
# `plankit serve` under each restart policy, through the Python example,
# and with --dsh through the published dsh package. Prints one line per
# run: wall time, CPU time (user + sys of everything the run started),
# both as ratios to the in-process run, and the restart counts.
#
#   bash scripts/perf-ratios.sh [--dsh] [--jobs N]
set -euo pipefail
cd "$(dirname "$0")/.."
dsh=false
jobs=()
while [ $# -gt 0 ]; do
  case $1 in
    --dsh) dsh=true ;;
    --jobs) jobs=(--jobs "$2"); shift ;;
    *) echo "usage: $0 [--dsh] [--jobs N]" >&2; exit 2 ;;
  esac
  shift
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -o "$work/plankit" ./cmd/plankit
pk="$work/plankit"

base_wall="" base_cpu=""
run() {
  local name=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$pk" check --format summary "${jobs[@]}" \
    --json "$work/$name.json" --counterexamples "$work/cex" "$@" > "$work/$name.out" 2>&1 || true
  read -r wall user sys < "$work/time"
  local cpu verdict restarts
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  verdict=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d.get('restarts'); print(d['verdict'], '' if r is None else 'real %d, reset %d' % (r['real'], r['reset']))" "$work/$name.json")
  if [ -z "$base_wall" ]; then base_wall=$wall base_cpu=$cpu; fi
  awk -v n="$name" -v w="$wall" -v c="$cpu" -v bw="$base_wall" -v bc="$base_cpu" -v v="$verdict" \
    'BEGIN { printf "| %s | %.1f s | %.1f s | %.1fx | %.1fx | %s |\n", n, w, c, w / bw, c / bc, v }'
}

# Node and Python start as the tests start them (scripts/interpreters.sh).
source scripts/interpreters.sh
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| run | wall | CPU | wall ratio | CPU ratio | verdict, restarts |"
echo "|---|---|---|---|---|---|"
run in-process
run serve-auto --adapter "$pk serve"
run serve-reset --adapter "$pk serve" --restarts reset
run serve-real --adapter "$pk serve" --restarts real
run python-auto --adapter "python3 adapter.py" --adapter-dir examples/adapters/python
run python-reset --adapter "python3 adapter.py" --adapter-dir examples/adapters/python --restarts reset
if $dsh; then
  run dsh-auto --adapter "node adapter/dsh/host.mjs" --expect adapter/dsh/expected-failures.txt --timeout 30s
  run dsh-reset --adapter "node adapter/dsh/host.mjs" --expect adapter/dsh/expected-failures.txt --timeout 30s --restarts reset
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
