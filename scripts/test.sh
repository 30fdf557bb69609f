#!/usr/bin/env bash
# Installs what the tests need and runs all of them. This is the README's
# test command.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
trap 'steps_summary "scripts/test.sh"' EXIT
step "go mod download"
go mod download
# The published dsh-plan-mode package and its host, pinned by the lock file.
step "npm ci: adapter/dsh"
npm ci --prefix adapter/dsh --no-audit --no-fund
# The real dsh agent loop with plan mode and its services, pinned likewise.
step "npm ci: adapter/dsh-runtime"
npm ci --prefix adapter/dsh-runtime --no-audit --no-fund
step "go test ./..."
go test ./...
step "node --test adapter/dsh/test/"
node --test adapter/dsh/test/
step "node --test adapter/dsh-runtime/test/"
node --test adapter/dsh-runtime/test/
step "scripts/conformance.sh"
bash scripts/conformance.sh
