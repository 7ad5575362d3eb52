# Sourced by tests/qemu/boot.sh: the host's side of a boot. The guest's
# initramfs (its programs from tests/qemu/guest), and one QEMU guest run
# under a watchdog.
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/times.sh"
GUEST_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/guest"

# add_fio ROOT: Debian's fio (an x86-64 guest runs the host's binary), the
# loader and every library ldd finds for it at the same paths, and the job
# files of tests/qemu/guest/fio as /fio.
add_fio() {
	local root=$1 lib
	command -v fio >/dev/null || { echo "[qemu] no fio: apt-get install fio" >&2; exit 1; }
	mkdir -p "$root/bin" "$root/fio"
	cp "$(command -v fio)" "$root/bin/fio"
	for lib in $(ldd "$(command -v fio)" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	cp "$GUEST_DIR"/fio/*.fio "$root/fio/"
}

# busybox_root ROOT INIT: the static busybox, INIT (a busybox script) as
# /init, guest-lib.sh as /lib/guest.sh and a static sgio, all x86-64.
busybox_root() {
	local root=$1 init=$2
	mkdir -p "$root/lib"
	cp /bin/busybox "$root/bin/busybox"
	file -L "$root/bin/busybox" | grep -q "statically linked" ||
		{ echo "[qemu] /bin/busybox is not static: apt-get install busybox-static" >&2; exit 1; }
	install -m 755 "$GUEST_DIR/$init" "$root/init"
	install -m 644 "$GUEST_DIR/guest-lib.sh" "$root/lib/guest.sh"
	gcc -O2 -static -Wall -Wextra -Werror -o "$root/bin/sgio" "$GUEST_DIR/sgio.c"
}

# c_root ROOT INIT: INIT (C) and sgio built with the kernel's GUEST_CC;
# where that builds them dynamic (GUEST_LIBS), the loader they name and the
# libraries they need, from the cross sysroot.
c_root() {
	local root=$1 init=$2 readelf prog interp lib
	"${GUEST_CC[@]}" -O2 -Wall -Wextra -Werror -o "$root/init" "$GUEST_DIR/$init"
	"${GUEST_CC[@]}" -O2 -Wall -Wextra -Werror -o "$root/bin/sgio" "$GUEST_DIR/sgio.c"
	[ -n "$GUEST_LIBS" ] || return 0
	readelf=${GUEST_CC[0]%gcc}readelf
	mkdir -p "$root/lib"
	for prog in "$root/init" "$root/bin/sgio"; do
		interp=$("$readelf" -lW "$prog" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
		[ -n "$interp" ] || { echo "[qemu] $prog names no loader" >&2; exit 1; }
		mkdir -p "$root$(dirname "$interp")"
		cp -L "$GUEST_LIBS/$(basename "$interp")" "$root$interp"
		for lib in $("$readelf" -dW "$prog" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			cp -L "$GUEST_LIBS/$lib" "$root/lib/$lib"
		done
	done
}

# guest_initramfs OUTDIR INIT [fio] [ENVFILE]: OUTDIR/initramfs.cpio.gz with
# INIT as PID 1 (busybox_root or c_root by its name), with "fio" add_fio's
# files, and ENVFILE as /sgchain.env.
guest_initramfs() {
	local out=$1 init=$2 fio=${3:-} env=${4:-} root=$1/initramfs
	rm -rf "$root" && mkdir -p "$root"/{bin,dev,proc,sys,tmp}
	case "$init" in
	*.sh) busybox_root "$root" "$init" ;;
	*.c) c_root "$root" "$init" ;;
	*) echo "[qemu] init $init: a busybox script (.sh) or C (.c)" >&2; exit 1 ;;
	esac
	[ "$fio" != fio ] || add_fio "$root"
	[ -z "$env" ] || cp "$env" "$root/sgchain.env"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.cpio.gz"
}

# run_guest OUTDIR QEMU-ARGS...: console to OUTDIR/console.log, exit code
# to OUTDIR/qemu.rc; a guest that outlives QEMU_TIMEOUT (default 600 s)
# is killed and the log says so, for the judge. So is a guest that
# panicked and is still running 5 s later: panic=-1 ends QEMU where the
# machine can reboot, but sun4u's firmware cannot, and its "Reboot failed"
# panics again, for ever.
#
# GUEST_VIA=lava runs the same command as a LAVA job instead, and
# GUEST_VIA=lava-job only writes the job (tests/lava/boot.sh); the runner
# names its KTAP suites in GUEST_SUITES, in boot order, for its monitors.
run_guest() {
	local out=$1 timeout_s=${QEMU_TIMEOUT:-600} start rc pid
	shift
	case "${GUEST_VIA:-}" in
	"") ;;
	lava | lava-job)
		start=$(date +%s)
		"$(dirname "${BASH_SOURCE[0]}")/../lava/boot.sh" "$out" "$@"
		time_record boot $(( $(date +%s) - start )) "$out (LAVA)"
		return ;;
	*)
		echo "[qemu] GUEST_VIA=$GUEST_VIA: lava, lava-job, or unset (QEMU here)" >&2
		exit 2 ;;
	esac
	echo "[qemu] booting $1 under TCG (watchdog ${timeout_s}s); console: $out/console.log"
	start=$(date +%s)
	: >"$out/console.log"
	timeout --foreground -k 10 "$timeout_s" "$@" </dev/null >"$out/console.log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q "Kernel panic - not syncing" "$out/console.log"; then
			sleep 5
			if kill -0 "$pid" 2>/dev/null; then
				kill "$pid" 2>/dev/null || true
				echo "[qemu] the guest panicked and kept running: stopped" >> "$out/console.log"
			fi
			break
		fi
		sleep 1
	done
	set +e
	wait "$pid"
	rc=$?
	set -e
	echo "[qemu] guest ran $(( $(date +%s) - start )) s, qemu exit $rc"
	time_record boot $(( $(date +%s) - start )) "$out"
	[ $rc -ne 124 ] || echo "[qemu] watchdog fired: the guest hung" >> "$out/console.log"
	echo "$rc" > "$out/qemu.rc"
}

# guest_via_judge OUTDIR: after a boot, whether the runner has a console
# to judge (not when GUEST_VIA=lava-job only wrote the job), and as
# GUEST_VIA_LOGS the KTAP a LAVA boot adds: its results against the
# console (tests/lava/agree.py).
guest_via_judge() {
	GUEST_VIA_LOGS=()
	case "${GUEST_VIA:-}" in
	lava-job) return 1 ;;
	lava) GUEST_VIA_LOGS=("$1/lava.ktap") ;;
	esac
}
