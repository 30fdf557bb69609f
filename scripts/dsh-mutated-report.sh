#!/usr/bin/env bash
# Writes the pair of reports that docs/ci-gate.md and compare's tests show
# `plankit compare` on: the published report of @deepseek-ai/dsh-plan-mode
# (docs/conformance/dsh-plan-mode-0.1.0-rc.8.json, copied as it is) and the
# report of the same run (same seed and manifest, 25 cases per property, as
# the report was published when the pair was written; CI now publishes it
# at 10) against a mutated copy of the package, whose set() answers
# "queued" where the logged state already matches the selection (PEND-5,
# SVC-4: "cancelled"). The pair is a fixture: compare's test holds what
# compare says of it, so a new pair means new expectations there. It needs
# node and the adapter's node_modules (npm ci in adapter/dsh).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=compare/testdata
CGO_ENABLED=0 go build -o "$work/plankit" ./cmd/plankit
mkdir -p "$work/adapter"
cp -R adapter/dsh adapter/node "$work/adapter/"
lib="$work/adapter/dsh/node_modules/@deepseek-ai/dsh-plan-mode/lib/index.js"
from='return foldPlanMode(session.events) === active ? "cancelled" : "queued";'
grep -qF "$from" "$lib" || { echo "$lib: the line to mutate is not there" >&2; exit 1; }
sed -i.orig "s/$from/return \"queued\";/" "$lib"
! cmp -s "$lib" "$lib.orig" || { echo "$lib: not mutated" >&2; exit 1; }
cp docs/conformance/dsh-plan-mode-0.1.0-rc.8.json "$out/dsh-plan-mode-0.1.0-rc.8.json"
"$work/plankit" check --format summary --checks 25 --adapter "node $work/adapter/dsh/host.mjs" \
  --expect adapter/dsh/expected-failures.txt --json "$out/dsh-plan-mode-mutated.json" \
  --counterexamples plankit-counterexamples/dsh-mutated || test $? -eq 1
echo "wrote $out/dsh-plan-mode-0.1.0-rc.8.json and $out/dsh-plan-mode-mutated.json"
