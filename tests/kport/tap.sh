# Sourced by the tests/kport scripts: TAP results, a scratch directory
# removed at exit, and $repo. The script prints its plan, calls ok once a
# test, and ends with 'tap_done'.
set -u
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

ok() { # DESCRIPTION CONDITION...
	local desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		fails=$((fails + 1))
	fi
}
has() { grep -qF -- "$2" <<< "$1"; }
# The repository's files as a checkout of them now would hold them (those
# git keeps, and new ones it does not ignore) in DEST.
copy_repo() { # DEST
	mkdir -p "$1"
	git -C "$repo" ls-files -z --cached --others --exclude-standard |
		(cd "$repo" && while IFS= read -r -d '' f; do
			[ ! -e "$f" ] || cp --parents -P -t "$1" "$f"
		done)
}
tap_done() { exit $((fails > 0)); }
