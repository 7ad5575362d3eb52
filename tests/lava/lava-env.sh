# Sourced by the LAVA scripts: where lava-server's device template and
# submission schema live, and the Python that has lava-dispatcher's
# modules (Debian's: lava-dispatcher installs them there).
# tests/lava/deps.sh puts them in place.
: "${SGCHAIN_CACHE:=${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/sgchain}"
LAVA_SERVER_ROOT="$SGCHAIN_CACHE/lava/lava-server"
LAVA_TEMPLATES="$LAVA_SERVER_ROOT/usr/share/lava-server/device-types"
LAVA_SERVER_MODULES="$LAVA_SERVER_ROOT/usr/lib/python3/dist-packages"
LAVA_PYTHON=/usr/bin/python3
if [ ! -f "$LAVA_TEMPLATES/qemu.jinja2" ] || ! command -v lava-run >/dev/null; then
	echo "[lava] lava-dispatcher or lava-server's templates missing: tests/lava/deps.sh (make lava-deps)" >&2
	exit 1
fi
