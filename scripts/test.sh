#!/usr/bin/env bash
# Installs what the tests need and runs all of them. This is the README's
# test command.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
trap 'steps_summary "scripts/test.sh"' EXIT
# The tests and the plankit runs they start allocate a lot and keep little:
# the Go collector at GOGC=400 (unless set) spends about a third less CPU on
# them than at the default 100, for a few times the small live heap
# (docs/performance.md, "CI"). Nothing a test checks depends on it.
export GOGC="${GOGC:-400}"
step "go mod download"
go mod download
# The published dsh-plan-mode package and its host, pinned by the lock file.
step "npm ci: adapter/dsh"
npm ci --prefix adapter/dsh --no-audit --no-fund
# The real dsh agent loop with plan mode and its services, pinned likewise.
step "npm ci: adapter/dsh-runtime"
npm ci --prefix adapter/dsh-runtime --no-audit --no-fund
# Past the installs: Node and Python start without this machine's
# start-up taxes (scripts/interpreters.sh).
source scripts/interpreters.sh
# The hosts' node tests mostly wait (timeouts, child processes), so they
# run beside go test; their output is printed, and their failure fails the
# command, once go test is done.
# staticcheck runs beside them too: cold, it takes about 30 s of CPU (and
# .ci/run runs it again after this, from its cache, in about a second),
# which go test's waiting leaves room for.
step "go test ./..., with node --test adapter/dsh/test/, adapter/dsh-runtime/test/ and staticcheck beside it"
node_logs=$(mktemp -d)
node --test adapter/dsh/test/ > "$node_logs/dsh" 2>&1 & node_dsh=$!
node --test adapter/dsh-runtime/test/ > "$node_logs/dsh-runtime" 2>&1 & node_runtime=$!
go tool staticcheck ./... > "$node_logs/staticcheck" 2>&1 & staticcheck=$!
# A package's tests may take longer than go test's default 10-minute
# bound on a machine loaded by other work (cmd/plankit's took more than
# 10 minutes of wall time at a load average of 40 on 2 cores, with about
# 2 minutes of CPU): the bound is raised so that load alone fails nothing.
go_status=0
go test -timeout 30m ./... || go_status=$?
node_status=0
wait "$node_dsh" || node_status=$?
echo "== node --test adapter/dsh/test/ (exit $node_status)"; cat "$node_logs/dsh"
runtime_status=0
wait "$node_runtime" || runtime_status=$?
echo "== node --test adapter/dsh-runtime/test/ (exit $runtime_status)"; cat "$node_logs/dsh-runtime"
static_status=0
wait "$staticcheck" || static_status=$?
echo "== go tool staticcheck ./... (exit $static_status)"; cat "$node_logs/staticcheck"
rm -rf "$node_logs"
if [ "$go_status" -ne 0 ] || [ "$node_status" -ne 0 ] || [ "$runtime_status" -ne 0 ] || [ "$static_status" -ne 0 ]; then
  echo "go test exit $go_status, node --test adapter/dsh/test/ exit $node_status, adapter/dsh-runtime/test/ exit $runtime_status, staticcheck exit $static_status"
  exit 1
fi
step "scripts/conformance.sh"
bash scripts/conformance.sh
