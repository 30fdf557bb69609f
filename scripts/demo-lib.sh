# What the recipe demos (add-clause-demo.sh, add-step-demo.sh) share
# (sourced, not run): the options, SPEC.md, the scratch copy of the tree,
# and the recipe test's verdict.

# demo_options reads --keep and the demo's own flag ($1, e.g. --narrow)
# from the rest of the arguments: keep, and flag=true when given.
demo_options() {
	local own=$1 usage=$2
	shift 2
	keep=false
	flag=false
	for a in "$@"; do
		case "$a" in
		--keep) keep=true ;;
		"$own") flag=true ;;
		*) echo "usage: $usage" >&2; exit 2 ;;
		esac
	done
}

# demo_spec finds SPEC.md ($PLANKIT_SPEC, or shared/SPEC.md beside the
# checkout or a parent) and sets spec.
demo_spec() {
	spec=${PLANKIT_SPEC:-}
	if [[ -z "$spec" ]]; then
		local d=$src
		while [[ "$d" != / ]]; do
			if [[ -f "$(dirname "$d")/shared/SPEC.md" ]]; then spec=$(dirname "$d")/shared/SPEC.md; break; fi
			d=$(dirname "$d")
		done
	fi
	[[ -f "$spec" ]] || { echo "SPEC.md not found: set PLANKIT_SPEC" >&2; exit 2; }
	export PLANKIT_SPEC=$spec
}

# demo_tree copies the tree the demo is run from (what git tracks, and
# what it does not ignore) into a scratch directory, work/tree, commits it
# there as the baseline and enters it; the copy goes at exit unless keep.
demo_tree() {
	work=$(mktemp -d)
	$keep || trap 'rm -rf "$work"' EXIT
	tree=$work/tree
	mkdir -p "$tree"
	(cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$tree"
	cd "$tree"
	git init -q && git add -A && git -c user.name=demo -c user.email=demo@example.invalid commit -q -m baseline
}

# recipe prints what the recipe test says: every missing piece, "nothing
# missing", or the first errors of a tree that does not build.
recipe() {
	local out
	out=$(go test ./cmd/plankit -run 'TestEveryClauseHasItsEvidence$' -count=1 -timeout 30m 2>&1 || true)
	if grep -q 'lacks, in the order' <<<"$out"; then
		sed -n '/lacks, in the order/,$p' <<<"$out" | grep -v '^FAIL\|^--- \|^ok' || true
	elif grep -q '^ok' <<<"$out"; then
		echo "   nothing missing"
	else
		echo "   (the tree does not build, or the test could not run; the first errors:)"
		grep -v '^FAIL\|^#' <<<"$out" | head -3 | sed 's/^/   /'
	fi
}
