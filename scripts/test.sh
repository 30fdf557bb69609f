#!/usr/bin/env bash
# Installs what the tests need and runs all of them. This is the README's
# test command.
set -euo pipefail
cd "$(dirname "$0")/.."
go mod download
# The published dsh-plan-mode package and its host, pinned by the lock file.
npm ci --prefix adapter/dsh --no-audit --no-fund
# The real dsh agent loop with plan mode and its services, pinned likewise.
npm ci --prefix adapter/dsh-runtime --no-audit --no-fund
go test ./...
node --test adapter/dsh/test/
node --test adapter/dsh-runtime/test/
bash scripts/conformance.sh
