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
echo "== plankit diff: the reference through plankit serve against the reference"
"$pk" diff --adapter "$pk serve" --cases 1000 --depth 4 --out "$work/diff"
echo "== plankit catalog coverage"
"$pk" catalog coverage > "$work/coverage.txt" || { cat "$work/coverage.txt"; exit 1; }
tail -n 1 "$work/coverage.txt"

echo "== plankit check: the published @deepseek-ai/dsh-plan-mode@0.1.0-rc.8 (manifest of known deviations)"
# Counterexamples go to a fixed relative directory (ignored by git), so the
# report, and the page generated from it, name the same paths in every run.
report=docs/conformance/dsh-plan-mode-0.1.0-rc.8.json
"$pk" check --format summary --checks 25 --adapter "node adapter/dsh/host.mjs" \
  --expect adapter/dsh/expected-failures.txt --json "$report" --counterexamples plankit-counterexamples/dsh
# The committed report is this same run (same seed, same checks) and the
# page is generated from it: either differing means they are stale.
go test -count=1 -run '^TestGeneratedFilesAreFresh$' ./cmd/plankit
git diff --exit-code --stat -- "$report" || { echo "$report differs from this run: refresh it (see the conformance page's header)"; exit 1; }
# The manifest's assume: lines name the package's known deviations; the
# properties' model (check, above) and the exploration predict them, so both
# look past them for others. Through the Node host depth 4 takes about 45 s
# (depth 5 about 160 s; the default 8 is out of reach there).
echo "== plankit explore --depth 4: the published package, its known deviations assumed"
"$pk" explore --depth 4 --adapter "node adapter/dsh/host.mjs" --expect adapter/dsh/expected-failures.txt --out "$work/explore-dsh"
echo "== plankit diff: the published package, its known deviations assumed (nothing new may be found)"
"$pk" diff --adapter "node adapter/dsh/host.mjs" --expect adapter/dsh/expected-failures.txt --cases 100 --depth 3 --timeout 60s --out "$work/diff-dsh"
