#!/bin/sh
# sync.sh rebuilds a patched dependency under internal/third_party/ from its
# upstream release and applies its patch.
#
#   internal/third_party/sync.sh NAME [VERSION]   copy upstream (default:
#                         NAME/UPSTREAM's version) into NAME/, rewrite its
#                         import paths, apply NAME.patch, merge its
#                         requirements into the root go.mod
#   internal/third_party/sync.sh --diff NAME      regenerate NAME.patch from NAME/
#
# NAME/UPSTREAM holds "module version"; NAME/PACKAGES lists the package
# directories copied (their non-test .go files, plus any directory listed with
# a trailing /** copied whole). LICENSE is always copied. The copy is part of
# plankit's module, so its imports of its own packages are rewritten from the
# upstream module path to github.com/plankit/plankit/internal/third_party/NAME
# (importpath.go; import declarations only) before the patch applies, and the
# patch holds only the change in behaviour. If the patch no longer applies
# after a version bump, the upstream code changed where the patch touches it:
# redo the change by hand in NAME/ and run `sync.sh --diff NAME`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
inmodule=github.com/plankit/plankit/internal/third_party

copy_upstream() { # copy_upstream MODULE VERSION PACKAGES DEST
	src=$(go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -n "$src" ] || { echo "sync.sh: cannot download $1@$2" >&2; exit 2; }
	rm -rf "$4"
	mkdir -p "$4"
	cp "$src/LICENSE" "$4/"
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
	(cd "$here" && go run importpath.go "$4" "$1" "$inmodule/$5")
}

if [ "${1:-}" = "--diff" ]; then
	name=$2
	set -- $(cat "$here/$name/UPSTREAM")
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	copy_upstream "$1" "$2" "$here/$name/PACKAGES" "$tmp/a" "$name"
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
copy_upstream "$module" "$version" "$tmp/PACKAGES" "$here/$name" "$name"
patch -s -p1 -d "$here/$name" < "$here/$name.patch"
echo "$module $version" > "$here/$name/UPSTREAM"
cp "$tmp/PACKAGES" "$here/$name/PACKAGES"

# The copy's requirements become the root module's: each module upstream's
# go.mod requires is raised to at least upstream's version, then tidy keeps
# those the copied packages import.
gomod=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')
cd "$root"
go mod edit -json "$gomod" |
	sed -n '/"Require"/,/]/s/^[[:space:]]*"\(Path\|Version\)": "\(.*\)",*$/\2/p' |
	paste - - | while read -r dep want; do
		have=$(go list -m -f '{{.Version}}' "$dep" 2>/dev/null || true)
		if [ -z "$have" ] || [ "$(printf '%s\n%s\n' "$have" "$want" | sort -V | tail -n 1)" != "$have" ]; then
			go get "$dep@$want"
		fi
	done
go mod tidy
echo "sync.sh: $module@$version copied to internal/third_party/$name with $name.patch applied"
