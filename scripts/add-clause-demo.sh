#!/usr/bin/env bash
# Adds a clause (LOG-5) with one scenario pair (a plugin-level and a
# runtime-level scenario) and one mutant in a scratch copy of the tree,
# following the recipe of docs/architecture.md ("Add a clause"), and shows:
#   1. what the recipe test (TestEveryClauseHasItsEvidence) names when
#      SPEC.md has a clause the code does not know, then once the clause
#      is declared: every missing piece at once, in the recipe's order;
#   2. the hand-written files the clause took (at most six besides
#      SPEC.md) and the files generation wrote;
#   3. what the recipe test names once the hand-written files are there
#      and generation has run: the slow proofs it runs for the new clause
#      and mutant alone pass, and only the kill matrices are left, which
#      their commands write;
#   4. for each hand-written file, what the test names when that one is
#      left out;
#   5. nothing missing, then the suite green in the copy: go test ./...
#      (with --narrow, the packages of the clause's scenarios, generation
#      and the recipe test only: what CI runs, within its time).
# The tree it is run from is not touched. Usage: scripts/add-clause-demo.sh
# [--keep] [--narrow] (--keep: keep the scratch copy and print where it is).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
source "$src/scripts/demo-lib.sh"
demo_options --narrow "scripts/add-clause-demo.sh [--keep] [--narrow]" "$@"
narrow=$flag
export GOFLAGS=-mod=mod
demo_spec
demo_tree

# SPEC.md gains the clause (the specification is the oracle: it comes first).
python3 - "$spec" "$work/SPEC.md" <<'EOF'
import sys
s = open(sys.argv[1]).read()
at = s.index("\n## PEND")
s = s[:at] + "- **LOG-5** The data of a `plan/mode` event records no source: which selection, command or\n  tool produced the change is not logged.\n" + s[at:]
open(sys.argv[2], "w").write(s)
EOF
export PLANKIT_SPEC=$work/SPEC.md

echo "== SPEC.md lists LOG-5; the tree does not know it yet. The recipe test says:"
recipe

# 1. spec/clauses.go: the clause.
python3 - <<'EOF'
p = "spec/clauses.go"
s = open(p).read()
s = s.replace('\tLOG4  = "LOG-4"\n', '\tLOG4  = "LOG-4"\n\tLOG5  = "LOG-5"\n', 1)
at = s.index("\t{ID: LOG4,")
at = s.index("\n", at) + 1
s = s[:at] + '\t{ID: LOG5, Group: "LOG", Since: v1, Statement: "The data of a `plan/mode` event records no source: which selection, command or tool produced the change is not logged."},\n' + s[at:]
open(p, "w").write(s)
EOF
gofmt -w spec/clauses.go
echo
echo "== LOG-5 declared in spec/clauses.go. The recipe test names every piece still missing, in order:"
recipe

# 2. features/log.feature: one scenario.
python3 - <<'EOF'
p = "features/log.feature"
s = open(p).read()
at = s.index("  @LOG-2 @id:log-fold")
s = s[:at] + '''  @LOG-5 @id:log-event-data-names-no-source
  Scenario: A committed selection's plan/mode data says nothing of where it came from
    Given an agent with plan mode inactive
    When the user selects plan mode
    Then exactly one plan/mode event is appended, with data exactly {"active": true}

''' + s[at:]
open(p, "w").write(s)
EOF
# 3. properties/catalog.go: the model state machine states it too.
python3 - <<'EOF'
p = "properties/catalog.go"
s = open(p).read()
s = s.replace("Info{NameStateMachine, []string{spec.LOG1, spec.LOG2, spec.LOG3, spec.LOG4,", "Info{NameStateMachine, []string{spec.LOG1, spec.LOG2, spec.LOG3, spec.LOG4, spec.LOG5,", 1)
open(p, "w").write(s)
EOF
# 4. loop/suite/log.feature: a runtime scenario.
python3 - <<'EOF'
p = "loop/suite/log.feature"
s = open(p).read()
at = s.index("  @LOG-3 @PEND-8 @id:rt-log-resume-from-log")
s = s[:at] + '''  @LOG-5 @id:rt-log-data-names-no-source
  Scenario: a selection's plan/mode event carries only the new state
    When the user selects plan mode
    Then the outcome is "committed"
    And the step appends plan/mode true

''' + s[at:]
open(p, "w").write(s)
EOF
# 5. reference/mutants.go: the mutant, its mutation and its evidence.
python3 - <<'EOF'
p = "reference/mutants.go"
s = open(p).read()
s = s.replace("\tPlanModeExtraField: {hook: func(k *hooks) {", '''\tPlanModeNamesSource: {hook: func(k *hooks) {
		k.data = then(k.data, func(active bool, _ json.RawMessage) json.RawMessage {
			return sim.JSON(map[string]any{"active": active, "via": "set"})
		})
	}},
\tPlanModeExtraField: {hook: func(k *hooks) {''', 1)
s = s.replace('\tPlanHeadingAnyLevel       Mutant = "plan-heading-any-level"\n', '\tPlanHeadingAnyLevel       Mutant = "plan-heading-any-level"\n\tPlanModeNamesSource       Mutant = "plan-mode-names-source"\n', 1)
at = s.index("var Catalogue = []MutantInfo{")
at = s.index("\n}\n", at)
s = s[:at] + '''
	{PlanModeNamesSource, spec.LOG5, "plan/mode data records what produced the change (via: set)", Evidence{
		Example: "cmd-not-composed.yaml",
		Log:     "lint/testdata/traces/narration.yaml", LogClause: spec.LOG1}},''' + s[at:]
open(p, "w").write(s)
EOF
gofmt -w reference/mutants.go
# 6. attribution/table.go: the rows of the observation where the data
# differs name the clause, at both levels.
python3 - <<'EOF'
p = "attribution/table.go"
s = open(p).read()
for row, obs in (("RowPlanData", "ObsPlanMode"), ("RowRtPlanData", "RtPlanMode")):
    old = '{%s, %s, "same values, different data", []string{"LOG-1"}}' % (row, obs)
    assert old in s, old
    s = s.replace(old, '{%s, %s, "same values, different data", []string{"LOG-1", "LOG-5"}}' % (row, obs), 1)
open(p, "w").write(s)
EOF

mapfile -t hand < <(git diff --name-only)
echo
echo "== Hand-written files besides SPEC.md: ${#hand[@]}"
printf '   %s\n' "${hand[@]}"
(( ${#hand[@]} <= 6 )) || { echo "more than six hand-written files" >&2; exit 1; }
go generate ./... >/dev/null
echo "== Generated by go generate ./...:"
git diff --name-only | grep -vxF -f <(printf '%s\n' "${hand[@]}") | sed 's/^/   /'
if ! $narrow; then
	echo
	echo "== Written and generated. The recipe test runs the slow proofs for LOG-5 and plan-mode-names-source alone, and says:"
	recipe
fi

echo
echo "== The kill matrices' commands write them anew (the new scenarios kill other mutants too: their rows change):"
go run ./cmd/plankit mutants --matrix --out docs/mutants.md | tail -2 | sed 's/^/   /'
go test ./cmd/plankit -run 'TestMutantsAreKilledAtRuntimeLevel$' -update -count=1 | sed 's/^/   /'
echo
echo "== Complete. The recipe test says:"
out=$(recipe)
echo "$out"
[[ "$out" == "   nothing missing" ]] || exit 1

git add -A && git -c user.name=demo -c user.email=demo@example.invalid commit -q -m LOG-5
if ! $narrow; then
	# Committed, nothing is new against HEAD: what the test names now is
	# what its static checks see of each file left out.
	for f in "${hand[@]}"; do
		git show HEAD~1:"$f" >"$f"
		echo
		echo "== Leaving out $f, the recipe test says:"
		recipe
		git checkout -q HEAD -- "$f"
	done
fi

echo
if $narrow; then
	echo "== The suite, narrowed to the packages the new clause and mutant are declared and tagged in (the recipe test above ran the slow proofs of the others for them): go test ./spec ./catalog/... ./features ./reference ./lint ./attribution, and the generation and ledger tests of cmd/plankit"
	go test -count=1 -timeout 30m ./spec ./catalog/... ./features ./reference ./lint ./attribution 2>&1 | sed 's/^/   /'
	go test -count=1 -timeout 30m ./cmd/plankit -run 'TestGeneratedFilesAreFresh$|TestArchitectureMapsTheImports$|TestEveryComparisonRestsOnSpecMD$' 2>&1 | sed 's/^/   /'
else
	echo "== The whole suite in the copy: go test ./..."
	go test -count=1 -timeout 60m ./... 2>&1 | grep -v 'no test files' | sed 's/^/   /'
fi
$keep && echo "scratch copy kept: $tree"
exit 0
