#!/usr/bin/env bash
# Replays every deviation trace both ways: each must pass against plankit's
# built-in runtime (exit 0) and fail against the real dsh runtime (exit 1).
# Usage: adapter/dsh-runtime/replay-traces.sh PATH-TO-PLANKIT   (from the repository root)
set -euo pipefail
pk=${1:?usage: $0 PATH-TO-PLANKIT}
host="node adapter/dsh-runtime/host.mjs"
status=0
for trace in adapter/dsh-runtime/traces/*.yaml; do
  if ! "$pk" sim --level runtime "$trace" > /dev/null; then
    echo "FAIL $trace: the built-in runtime does not pass it"; status=1
  fi
  set +e
  "$pk" sim --level runtime --adapter "$host" "$trace" > /dev/null 2>&1
  code=$?
  set -e
  if [ "$code" -ne 1 ]; then
    echo "FAIL $trace: the real dsh runtime exits $code, want 1 (the deviation)"; status=1
  else
    echo "ok   $trace"
  fi
done
exit "$status"
