#!/usr/bin/env bash
# Install the Debian packages given as arguments, if any is missing.
# apt's progress goes to a log (DEPS_LOG, default build/deps.log), not to the
# terminal: one line says what is being installed, and a failure shows the
# log's tail.
set -euo pipefail

missing=()
for pkg in "$@"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

log=${DEPS_LOG:-build/deps.log}
mkdir -p "$(dirname "$log")"
echo "deps: installing ${missing[*]} (log: $log)"
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
{
	echo "=== $(date -u '+%F %T') apt-get install ${missing[*]}"
	"${sudo[@]}" apt-get update -q &&
		"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
} >>"$log" 2>&1 || {
	echo "deps: installing ${missing[*]} failed; the end of $log:" >&2
	tail -n 20 "$log" >&2
	exit 1
}
