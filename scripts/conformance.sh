#!/usr/bin/env bash
# The conformance gate as CI runs it, with a freshly built binary: the
# reference in-process and through `plankit serve` (same results required),
# the second-language example, the bounded exploration, and clause coverage.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/plankit" ./cmd/plankit
pk="$work/plankit"

echo "== plankit check: the reference, in-process"
"$pk" check --format summary --json "$work/inproc.json" --counterexamples "$work/cex"
echo "== plankit check: the reference through plankit serve"
"$pk" check --format summary --adapter "$pk serve" --json "$work/serve.json" --counterexamples "$work/cex"
python3 scripts/same-results.py "$work/inproc.json" "$work/serve.json"
# External processes pay a real process start at every restart the
# properties draw, so they run 25 cases per property instead of 100.
echo "== plankit check: the Python example adapter"
"$pk" check --format summary --checks 25 --adapter "python3 adapter.py" --adapter-dir examples/adapters/python --counterexamples "$work/cex"
echo "== plankit explore --depth 6"
"$pk" explore --depth 6 --out "$work/explore"
echo "== plankit catalog coverage"
"$pk" catalog coverage > "$work/coverage.txt" || { cat "$work/coverage.txt"; exit 1; }
tail -n 1 "$work/coverage.txt"

echo "== plankit check: the published @deepseek-ai/dsh-plan-mode@0.1.0-rc.8 (manifest of known deviations)"
"$pk" check --format summary --checks 25 --adapter "node adapter/dsh/host.mjs" \
  --expect adapter/dsh/expected-failures.txt --json "$work/dsh.json" --counterexamples "$work/cex"
# The page is generated from a committed report of this same run (same
# seed, same checks): a difference means the page is stale.
go run ./adapter/dsh/conformance -report "$work/dsh.json" -check
echo "== plankit explore --depth 3: the published package (depth 4 reaches the known STEP-1 deviation)"
"$pk" explore --depth 3 --adapter "node adapter/dsh/host.mjs" --out "$work/explore-dsh"
