#!/bin/sh
# sync.sh rebuilds a patched dependency under third_party/ from its upstream
# release and applies its patch.
#
#   third_party/sync.sh NAME [VERSION]   copy upstream (default: NAME/UPSTREAM's
#                                        version) into NAME/, apply NAME.patch
#   third_party/sync.sh --diff NAME      regenerate NAME.patch from NAME/
#
# NAME/UPSTREAM holds "module version"; NAME/PACKAGES lists the package
# directories copied (their non-test .go files, plus any directory listed with
# a trailing /** copied whole). go.mod, go.sum and LICENSE are always copied.
# If the patch no longer applies after a version bump, the upstream code
# changed where the patch touches it: redo the change by hand in NAME/ and run
# `sync.sh --diff NAME`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

copy_upstream() { # copy_upstream MODULE VERSION PACKAGES DEST
	src=$(go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -n "$src" ] || { echo "sync.sh: cannot download $1@$2" >&2; exit 2; }
	rm -rf "$4"
	mkdir -p "$4"
	cp "$src/go.mod" "$src/go.sum" "$src/LICENSE" "$4/"
	while read -r pkg; do
		case $pkg in
		'' | '#'*) ;;
		*/'**') d=${pkg%/\*\*} && mkdir -p "$4/$(dirname "$d")" && cp -R "$src/$d" "$4/$(dirname "$d")/" ;;
		*)
			mkdir -p "$4/$pkg"
			for f in "$src/$pkg"/*.go; do
				case $f in *_test.go) continue ;; esac
				cp "$f" "$4/$pkg/"
			done
			;;
		esac
	done < "$3"
	chmod -R u+w "$4"
}

if [ "${1:-}" = "--diff" ]; then
	name=$2
	set -- $(cat "$here/$name/UPSTREAM")
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	copy_upstream "$1" "$2" "$here/$name/PACKAGES" "$tmp/a"
	mkdir "$tmp/b"
	cp -R "$here/$name"/. "$tmp/b/"
	rm -f "$tmp/b/UPSTREAM" "$tmp/b/PACKAGES"
	(cd "$tmp" && diff -ruN a b || true) |
		sed -E 's/^(---|\+\+\+) ([^	]*)	.*/\1 \2/' > "$here/$name.patch"
	echo "sync.sh: wrote $here/$name.patch"
	exit 0
fi

name=$1
set -- $(cat "$here/$name/UPSTREAM") ${2:-}
module=$1
version=${3:-$2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/$name/PACKAGES" "$tmp/PACKAGES"
copy_upstream "$module" "$version" "$tmp/PACKAGES" "$here/$name"
patch -s -p1 -d "$here/$name" < "$here/$name.patch"
echo "$module $version" > "$here/$name/UPSTREAM"
cp "$tmp/PACKAGES" "$here/$name/PACKAGES"
echo "sync.sh: $module@$version copied to third_party/$name with $name.patch applied"
