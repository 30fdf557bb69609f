#!/usr/bin/env bash
# Runs every fuzz target of the module with -fuzz, one after another, for
# FUZZTIME each (4000 executions by default, "4000x"): go test ./... runs
# only their seeds. A count, not a duration: with a duration Go 1.26's
# fuzz coordinator can report its own deadline as the target's failure
# ("context deadline exceeded", no input written) when the deadline
# passes while a worker is mid-call (golang/go#75804, fixed in Go 1.27),
# as it did here under load; a count has no deadline to race, and costs
# the same on a slow machine as on a fast one. A
# target is found by its declaration (func FuzzX(f *testing.F)) in a
# _test.go file (not under testdata/, which holds other modules), so a new
# one is run without being listed here. A crasher
# fails the run; go test has then written its input under the package's
# testdata/fuzz/FuzzX/, which is committed with the fix as a seed
# (docs/reliability.md, "Fuzzing").
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-4000x}"
targets=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while IFS= read -r file; do
  pkg="./$(dirname "$file")"
  for name in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(f \*testing\.F).*/\1/p' "$file"); do
    targets=$((targets + 1))
    echo "-- $pkg $name"
    if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg" > "$log" 2>&1; then
      cat "$log"
      echo "$pkg $name failed: fix it, keeping its input (testdata/fuzz/$name/) as a seed"
      exit 1
    fi
    tail -n 1 "$log"
  done
done < <(git ls-files --cached --others --exclude-standard '*_test.go' | grep -v '^internal/third_party/' | grep -v '/testdata/' | xargs grep -l '^func Fuzz[A-Za-z0-9_]*(f \*testing\.F)' | sort)
echo "$targets fuzz targets, $fuzztime each"
