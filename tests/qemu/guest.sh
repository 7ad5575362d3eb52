# Sourced by the boot scripts: run one QEMU guest under the watchdog.
# run_guest OUTDIR QEMU-ARGS...: console to OUTDIR/console.log, exit code
# to OUTDIR/qemu.rc; a guest that outlives QEMU_TIMEOUT (default 600 s)
# is killed and the log says so, for the judge.
run_guest() {
	local out=$1 timeout_s=${QEMU_TIMEOUT:-600} start rc
	shift
	echo "[qemu] booting $1 under TCG (watchdog ${timeout_s}s); console: $out/console.log"
	start=$(date +%s)
	set +e
	timeout --foreground -k 10 "$timeout_s" "$@" </dev/null >"$out/console.log" 2>&1
	rc=$?
	set -e
	echo "[qemu] guest ran $(( $(date +%s) - start )) s, qemu exit $rc"
	[ $rc -ne 124 ] || echo "[qemu] watchdog fired: the guest hung" >> "$out/console.log"
	echo "$rc" > "$out/qemu.rc"
}
