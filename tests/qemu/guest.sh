# Sourced by the boot scripts: build an x86 initramfs, run one QEMU guest
# under the watchdog.
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/times.sh"

# Kernel parameters for every x86 guest (kport/arches.sh's x86 rows say
# the same). On a busy host TCG reads the clocksource watchdog slowly, and
# the kernel says "clocksource: Long readout interval, skipping watchdog
# check" (or marks the TSC unstable) in the middle of a run whose log must
# stay quiet. tsc=reliable takes the TSC off the watchdog's list; with no
# clocksource left to verify, the watchdog never runs.
X86_GUEST_ARGS="tsc=reliable"

# add_fio ROOT: Debian's fio (an x86-64 guest runs the host's binary), the
# loader and every library ldd finds for it at the same paths, and the job
# files of tests/qemu/fio as /fio.
add_fio() {
	local root=$1 here lib
	here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
	command -v fio >/dev/null || { echo "[qemu] no fio: apt-get install fio" >&2; exit 1; }
	mkdir -p "$root/bin" "$root/fio"
	cp "$(command -v fio)" "$root/bin/fio"
	for lib in $(ldd "$(command -v fio)" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	cp "$here"/fio/*.fio "$root/fio/"
}

# x86_initramfs OUTDIR INIT [fio]: OUTDIR/initramfs.cpio.gz with the static
# busybox, INIT as /init, guest-lib.sh as /lib/guest.sh, a static sgio, and
# with "fio" add_fio's files.
x86_initramfs() {
	local out=$1 init=$2 fio=${3:-} here root
	here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
	root="$out/initramfs"
	rm -rf "$root" && mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib}
	cp /bin/busybox "$root/bin/busybox"
	file -L "$root/bin/busybox" | grep -q "statically linked" ||
		{ echo "[qemu] /bin/busybox is not static: apt-get install busybox-static" >&2; exit 1; }
	install -m 755 "$init" "$root/init"
	install -m 644 "$here/guest-lib.sh" "$root/lib/guest.sh"
	gcc -O2 -static -Wall -Wextra -Werror -o "$root/bin/sgio" "$here/sgio.c"
	[ "$fio" != fio ] || add_fio "$root"
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
