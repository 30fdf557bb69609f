#!/usr/bin/env bash
# Installs what the tests need and runs all of them. This is the README's
# test command.
set -euo pipefail
cd "$(dirname "$0")/.."
go mod download
go test ./...
bash scripts/conformance.sh
