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
tap_done() { exit $((fails > 0)); }
