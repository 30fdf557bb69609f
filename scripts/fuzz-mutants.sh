#!/usr/bin/env bash
# How long Go's fuzzer takes, from an empty corpus, to find each mutant of
# the reference's catalogue through conformance.Fuzz (the fuzz target
# FuzzReferenceMutant of package conformance, each mutant in turn as the
# implementation under test). Prints one Markdown table row per mutant:
# found or not, and the fuzzing time Go reports until the failing input
# (no minimization: the time to find it); docs/performance.md records
# the figures ("Fuzzing from go test").
#
#   scripts/fuzz-mutants.sh [--fuzztime 60s] [--parallel 1] [MUTANT...]
#
# No MUTANT: every mutant of the catalogue. Each run starts from an empty
# corpus: no seed inputs, a fresh fuzz cache, and the failing input Go
# writes to conformance/testdata/fuzz/FuzzReferenceMutant removed after
# it. Each input found is then replayed as go test replays a kept input:
# it must write a plankit trace that passes against the reference and fails
# against the mutant (plankit sim --mutant), unless no trace expectation can
# state the divergence (the trace then replays the sequence alone). Exit 1 when a mutant named
# (or any, with none named) is not found within --fuzztime, or its trace
# does not replay so. CI runs a few mutants with a short --fuzztime
# (scripts/conformance.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=60s
parallel=1
mutants=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fuzztime) fuzztime=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    -*) echo "usage: $0 [--fuzztime 60s] [--parallel 1] [MUTANT...]" >&2; exit 2 ;;
    *) mutants+=("$1"); shift ;;
  esac
done
if [ ${#mutants[@]} -eq 0 ]; then
  mapfile -t mutants < <(go run ./cmd/plankit mutants | awk '$3 == "mutant" { print $1 }')
fi
work=$(mktemp -d)
corpus=conformance/testdata/fuzz/FuzzReferenceMutant
trap 'rm -rf "$work" "$corpus"' EXIT
# Build the fuzzing test binary once (coverage-instrumented: a build of its
# own) and plankit, before anything is timed; the binary runs in the
# package's directory, where Go keeps the failing inputs.
go test -c -fuzz '^FuzzReferenceMutant$' -o "$work/fuzz.test" ./conformance
go build -o "$work/plankit" ./cmd/plankit
echo "| mutant | found | fuzzing time |"
echo "|---|---|---|"
missed=0
for m in "${mutants[@]}"; do
  rm -rf "$corpus" "$work/cache"
  out=$(cd conformance && PLANKIT_FUZZ_MUTANT="$m" PLANKIT_FUZZ_OUT="$work/traces" "$work/fuzz.test" -test.run '^$' \
    -test.fuzz '^FuzzReferenceMutant$' -test.fuzztime "$fuzztime" -test.fuzzminimizetime 0s -test.parallel "$parallel" \
    -test.fuzzcachedir "$work/cache" 2>&1) || true
  if failed=$(printf '%s\n' "$out" | grep -m1 -o -- '--- FAIL: FuzzReferenceMutant ([0-9.]*s)'); then
    if [ ! -d "$corpus" ]; then
      echo "$m: the target failed without a failing input:" >&2
      printf '%s\n' "$out" >&2
      exit 1
    fi
    secs=${failed##*(}; secs=${secs%)}
    input=$(basename "$(ls "$corpus" | head -1)")
    rm -rf "$work/traces"
    (cd conformance && PLANKIT_FUZZ_MUTANT="$m" PLANKIT_FUZZ_OUT="$work/traces" "$work/fuzz.test" \
      -test.run "^FuzzReferenceMutant/$input\$" > "$work/replay.log" 2>&1) || true
    trace="$work/traces/lockstep-fuzz-$input.yaml"
    # A divergence no trace expectation can state (an effect's order, say)
    # is written as the sequence alone: it replays, and cannot fail.
    stated=yes
    grep -q "no trace expectation can state this observation" "$work/replay.log" && stated=no
    if [ ! -f "$trace" ] || ! "$work/plankit" sim "$trace" > /dev/null 2>&1 ||
      { [ "$stated" = yes ] && "$work/plankit" sim --mutant "$m" "$trace" > /dev/null 2>&1; }; then
      echo "$m: the kept input $input did not replay into a trace that passes against the reference and fails against the mutant:" >&2
      cat "$work/replay.log" >&2
      exit 1
    fi
    echo "| \`$m\` | yes | $secs |"
  else
    if ! printf '%s\n' "$out" | grep -q '^PASS'; then
      echo "$m: the fuzz run did not finish:" >&2
      printf '%s\n' "$out" >&2
      exit 1
    fi
    echo "| \`$m\` | **no** | not within $fuzztime |"
    missed=$((missed + 1))
  fi
done
if [ "$missed" -gt 0 ]; then
  echo "$missed of ${#mutants[@]} mutants not found within $fuzztime" >&2
  exit 1
fi
