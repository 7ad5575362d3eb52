#!/usr/bin/env bash
# make lava-deps: lava-dispatcher (lava-run, lava-common's job schema) from
# Debian, and from lava-server's package of the same version only its
# files a job needs: the qemu device-type template (with base.jinja2,
# which it extends) and the submission schema. The package is taken apart
# in the cache, not installed: a server would pull in Django, PostgreSQL
# and Apache.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/../../scripts/deps.sh" lava-dispatcher python3-jinja2 python3-yaml
: "${SGCHAIN_CACHE:=${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/sgchain}"
dir="$SGCHAIN_CACHE/lava"
version=$(dpkg-query -W -f='${Version}' lava-dispatcher)
stamp="$dir/lava-server/.version"
[ "$(cat "$stamp" 2>/dev/null)" != "$version" ] || exit 0
log=${DEPS_LOG:-build/deps.log}
mkdir -p "$dir" "$(dirname "$log")"
echo "deps: lava-server $version's device templates and job schema (log: $log)"
rm -rf "$dir/lava-server" "$dir"/lava-server_*.deb
# apt-get download writes to the current directory; as root it warns
# that _apt cannot (it downloads unsandboxed): into the log.
(cd "$dir" && apt-get download "lava-server=$version") >>"$log" 2>&1 || {
	echo "deps: apt-get download lava-server=$version failed; the end of $log:" >&2
	tail -n 5 "$log" >&2
	exit 1
}
dpkg-deb -x "$dir"/lava-server_*.deb "$dir/lava-server"
for f in usr/share/lava-server/device-types/qemu.jinja2 \
	 usr/share/lava-server/device-types/base.jinja2 \
	 usr/lib/python3/dist-packages/lava_scheduler_app/schema.py; do
	[ -f "$dir/lava-server/$f" ] || { echo "deps: lava-server $version has no $f" >&2; exit 1; }
done
rm -f "$dir"/lava-server_*.deb
echo "$version" > "$stamp"
