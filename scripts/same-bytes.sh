#!/usr/bin/env bash
# same-bytes.sh OLD NEW: shows that a refactor changed no output. It runs
# two plankit binaries on the same inputs and compares every byte they
# print or write, with their exit codes:
#   - check --json at the plugin and the runtime level, against the
#     reference in-process, with a fixed seed;
#   - sim --format text on every example: examples/*.yaml at the plugin
#     level, examples/runtime/*.yaml at the runtime level.
# Build OLD before the change (go build -o /tmp/pk-before ./cmd/plankit),
# NEW after it. Exit 0 when every output is the same, 1 when one differs
# (each is named, with a diff), 2 on usage.
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
	echo "usage: $0 OLD-PLANKIT NEW-PLANKIT (two built binaries; run from the module root)" >&2
	exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
root=$(pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run NAME ARGS...: runs both binaries from the module root, each writing
# into its own directory ($dir is substituted for @DIR@ in ARGS).
run() {
	local name=$1
	shift
	for side in old new; do
		local bin=$old dir=$out/$side
		[ $side = new ] && bin=$new
		mkdir -p "$dir/$name"
		local args=()
		for a in "$@"; do args+=("${a//@DIR@/$dir/$name}"); done
		(cd "$root" && "$bin" "${args[@]}" >"$dir/$name/stdout" 2>"$dir/$name/stderr")
		echo $? >"$dir/$name/exit"
	done
}

run check-plugin check --level plugin --seed 1 --json @DIR@/report.json --counterexamples @DIR@/cx
run check-runtime check --level runtime --seed 1 --json @DIR@/report.json --counterexamples @DIR@/cx
for f in examples/*.yaml; do
	run "sim-$(basename "$f" .yaml)" sim --format text "$f"
done
for f in examples/runtime/*.yaml; do
	run "sim-runtime-$(basename "$f" .yaml)" sim --level runtime --format text "$f"
done

# The runs wrote under different directories: a path they print is
# compared with the directory taken out.
differ=0
runs=0
for d in "$out"/old/*/; do
	name=$(basename "$d")
	runs=$((runs + 1))
	for f in $(cd "$d" && find . -type f | sort); do
		sed "s#$out/old#DIR#g" "$out/old/$name/$f" >"$out/a"
		sed "s#$out/new#DIR#g" "$out/new/$name/$f" >"$out/b" 2>/dev/null || echo "(missing)" >"$out/b"
		if ! cmp -s "$out/a" "$out/b"; then
			echo "DIFFERS: $name ${f#./}"
			diff "$out/a" "$out/b" | head -20
			differ=1
		fi
	done
	if [ "$(cd "$out/new/$name" && find . -type f | sort)" != "$(cd "$d" && find . -type f | sort)" ]; then
		echo "DIFFERS: $name writes other files"
		differ=1
	fi
done
if [ $differ = 0 ]; then
	echo "same bytes: $runs runs (check --json at 2 levels, sim --format text on $((runs - 2)) examples), stdout, stderr, exit codes and reports identical"
fi
exit $differ
