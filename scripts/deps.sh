#!/usr/bin/env bash
# Install the Debian packages given as arguments, if any is missing.
# apt's progress goes to a log (DEPS_LOG, default build/deps.log), not to the
# terminal: one line says what is being installed, and a failure shows the
# log's tail.
#
# Two targets may install at once (make -j, two shells): one waits for the
# other on DEPS_LOCK, then installs only what is still missing; apt waits
# for a dpkg lock another program holds. An install cut short (Ctrl-C in the
# first make qemu, a killed shell) leaves dpkg "interrupted", and every
# apt-get install after it refuses until 'dpkg --configure -a' has run:
# that is run first, as apt asks, then the install.
set -euo pipefail

missing_packages() {
	missing=()
	local pkg
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
			missing+=("$pkg")
	done
}
missing_packages "$@"
[ ${#missing[@]} -eq 0 ] && exit 0

log=${DEPS_LOG:-build/deps.log}
mkdir -p "$(dirname "$log")"
lock=${DEPS_LOCK:-${TMPDIR:-/tmp}/sgchain-deps.$(id -u).lock}
exec 9>>"$lock"
if ! flock -n 9; then
	echo "deps: waiting for another sgchain install to finish ($lock)"
	flock 9
	missing_packages "$@"
	[ ${#missing[@]} -eq 0 ] && exit 0
fi

echo "deps: installing ${missing[*]} (log: $log)"
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
# Wait up to 10 minutes for a dpkg lock held by another program.
apt=("${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600)
install() {
	"${apt[@]}" install -y -q --no-install-recommends "${missing[@]}"
}
# dpkg's own journal of an operation not finished: apt refuses to go on.
interrupted() { grep -q "dpkg was interrupted" "$log.last"; }
{
	echo "=== $(date -u '+%F %T') apt-get install ${missing[*]}"
	"${apt[@]}" update -q && install
} > "$log.last" 2>&1 || rc=$?
if [ "${rc:-0}" -ne 0 ] && interrupted; then
	echo "deps: dpkg was interrupted by an earlier install: running 'dpkg --configure -a' first"
	rc=0
	{
		echo "=== $(date -u '+%F %T') dpkg --configure -a, then the install again"
		"${sudo[@]}" dpkg --configure -a && install
	} >> "$log.last" 2>&1 || rc=$?
fi
cat "$log.last" >> "$log"
if [ "${rc:-0}" -ne 0 ]; then
	echo "deps: installing ${missing[*]} failed; the end of $log:" >&2
	tail -n 20 "$log.last" >&2
	if interrupted; then
		echo "deps: dpkg is still interrupted: run 'sudo dpkg --configure -a', then make again" >&2
	fi
	rm -f "$log.last"
	exit 1
fi
rm -f "$log.last"
