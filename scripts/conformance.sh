#!/usr/bin/env bash
# The conformance gate as CI runs it, with a freshly built binary, at both
# levels: the reference (plugin level) and the built-in runtime (runtime
# level) in-process and through `plankit serve` (same results required), the
# bounded explorations, clause coverage, and
# the published dsh package and runtime against their manifests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
work=$(mktemp -d)
trap 'steps_summary "scripts/conformance.sh"; rm -rf "$work"' EXIT
step "build plankit"
# Without cgo the binary is static: no dynamic loader at each of the
# thousands of process starts below (docs/performance.md#start-up).
CGO_ENABLED=0 go build -o "$work/plankit" ./cmd/plankit
pk="$work/plankit"
# The freshness test of the generated pages runs twice below, after each
# dsh report is rewritten: its test binary is linked once.
go test -c -o "$work/plankit.test" ./cmd/plankit
fresh() { (cd cmd/plankit && "$work/plankit.test" -test.count=1 -test.run '^TestGeneratedFilesAreFresh$'); }

step "plankit check: the reference, in-process"
"$pk" check --format summary --json "$work/inproc.json" --counterexamples "$work/cex"
step "plankit check: the reference through plankit serve"
"$pk" check --format summary --adapter "$pk serve" --json "$work/serve.json" --counterexamples "$work/cex"
python3 scripts/same-results.py "$work/inproc.json" "$work/serve.json"
# The Python example adapter's full check runs in go test (examples/mistakes
# TestFaithfulExamplesPass, with real restarts; adapter
# TestPythonExampleMatchesReference), so not again here.
step "plankit explore --depth 6"
"$pk" explore --depth 6 --out "$work/explore"
# Less than diff's defaults (1000 sequences, depth 4) to keep CI within its
# bound: 300 sequences and every sequence up to depth 3.
step "plankit diff: the reference through plankit serve against the reference"
"$pk" diff --adapter "$pk serve" --cases 300 --depth 3 --out "$work/diff"
# Go's fuzzer through conformance.Fuzz, from an empty corpus, against three
# mutants it finds in under a second on the 2-core machine (the figures for
# every mutant: docs/performance.md, "Fuzzing from go test"); each kept
# input replayed must write a trace that fails against the mutant. The
# coverage-instrumented build is go test's of the scratch module
# (conformance TestScratchModuleFromTheDocs), already in the cache.
step "go test -fuzz: conformance.Fuzz finds three mutants from an empty corpus"
bash scripts/fuzz-mutants.sh --fuzztime 30s section-wrong-order narrate-always double-append
step "plankit catalog coverage"
"$pk" catalog coverage > "$work/coverage.txt" || { cat "$work/coverage.txt"; exit 1; }
tail -n 1 "$work/coverage.txt"

step "plankit check: the published @deepseek-ai/dsh-plan-mode@0.1.0-rc.8 (manifest of known deviations)"
# Counterexamples go to a fixed relative directory (ignored by git), so the
# report, and the page generated from it, name the same paths in every run.
report=docs/conformance/dsh-plan-mode-0.1.0-rc.8.json
# 10 cases per property (the default is 100): each real restart is a Node
# start, and 10 find the same known deviations as 25 did (docs/performance.md).
"$pk" check --format summary --checks 10 --adapter "node adapter/dsh/host.mjs" \
  --expect adapter/dsh/expected-failures.txt --json "$report" --counterexamples plankit-counterexamples/dsh
# The committed report is this same run (same seed, same checks) and the
# page is generated from it: either differing means they are stale.
fresh
git diff --exit-code --stat -- "$report" || { echo "$report differs from this run: refresh it (see the conformance page's header)"; exit 1; }
# The manifest's assume: lines name the package's known deviations; the
# properties' model (check, above) and the exploration predict them, so both
# look past them for others. Through the Node host depth 2 takes about 5 s
# of CPU, depth 3 (29 actions) about 28 s and depth 4 about 90 s of wall
# time, a Node start at each restart that can lose a pending selection, so
# CI runs depth 2 to stay within its bound (the default 8 is out of reach
# there; docs/performance.md); the diff below searches deeper at random.
step "plankit explore --depth 2: the published package, its known deviations assumed"
"$pk" explore --depth 2 --adapter "node adapter/dsh/host.mjs" --expect adapter/dsh/expected-failures.txt --out "$work/explore-dsh"
# 50 random sequences of the default 40 actions and every sequence up to
# depth 2, against the defaults' 1000 and depth 4 (about 17 s of CPU here).
step "plankit diff: the published package, its known deviations assumed (nothing new may be found)"
"$pk" diff --adapter "node adapter/dsh/host.mjs" --expect adapter/dsh/expected-failures.txt --cases 50 --depth 2 --timeout 60s --out "$work/diff-dsh"


step "plankit check --level runtime: the built-in runtime, in-process"
"$pk" check --level runtime --format summary --json "$work/rt-inproc.json" --counterexamples "$work/cex"
step "plankit check --level runtime: the built-in runtime through plankit serve --level runtime"
"$pk" check --level runtime --format summary --adapter "$pk serve --level runtime" --json "$work/rt-serve.json" --counterexamples "$work/cex"
python3 scripts/same-results.py "$work/rt-inproc.json" "$work/rt-serve.json"
# The Python example runtime's full check runs in go test, with
# --validate-protocol, as docs/checking-your-runtime.md shows it
# (cmd/plankit TestDocScripts), so not again here.
step "plankit sim --level runtime: the runtime examples"
"$pk" sim --level runtime examples/runtime/*.yaml > /dev/null
step "plankit explore --level runtime --depth 3"
"$pk" explore --level runtime --depth 3 --out "$work/explore-rt"
# Less than diff's defaults (1000 scripts, depth 2: about 15 s through serve
# on the 2-core machine, docs/performance.md) to keep CI within its bound.
step "plankit diff --level runtime: the built-in runtime through plankit serve --level runtime"
"$pk" diff --level runtime --adapter "$pk serve --level runtime" --cases 100 --depth 1 --out "$work/diff-rt"

# Measured at about 20-30 s on the 2-core machine shared with other work
# (about 50 s when every restart was a new Node process; now the default
# --restarts auto: 11 real restarts, 27 resets), with the default number of
# cases (rt-invariants x 100 scripts, four focused properties x 20 and
# rt-recovery x 5, three of them shrinking a failure on a known deviation);
# the bound is 90 s.
step "plankit check --level runtime: the real dsh agent loop 0.1.0-rc.8 with plan mode (manifest of known deviations)"
report=docs/conformance/dsh-runtime-0.1.0-rc.8.json
"$pk" check --level runtime --format summary --adapter "node adapter/dsh-runtime/host.mjs" \
  --expect adapter/dsh-runtime/expected-failures.txt --json "$report" --counterexamples plankit-counterexamples/dsh-runtime
fresh
git diff --exit-code --stat -- "$report" || { echo "$report differs from this run: refresh it (see the conformance page's header)"; exit 1; }
step "the dsh runtime's deviation traces: each fails against the real runtime and passes against the built-in one"
adapter/dsh-runtime/replay-traces.sh "$pk"
# 40 random scripts and depth 1 (the defaults: 1000 and depth 2, about
# 2 minutes against the dsh runtime on the quiet 2-core machine,
# docs/performance.md), its known deviations assumed: nothing new may be
# found.
step "plankit diff --level runtime: the real dsh agent loop, its known deviations assumed (nothing new may be found)"
"$pk" diff --level runtime --adapter "node adapter/dsh-runtime/host.mjs" --expect adapter/dsh-runtime/expected-failures.txt --cases 40 --depth 1 --timeout 60s --out "$work/diff-dsh-rt"
