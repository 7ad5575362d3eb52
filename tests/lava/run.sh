#!/usr/bin/env bash
# make lava / make lava-jobs: the QEMU boots as LAVA jobs. Usage: run.sh
# MODE O BOOT..., MODE lava (run each job with lava-run and judge it) or
# lava-job (write and validate the jobs only), O make's output directory,
# each BOOT a list of boots (a make target: tests/qemu/boots/LIST) or one
# boot by name, with @6.12 for the 6.12 kernel; MODE list only prints the
# boots each names. Each runs as make runs it (its kernel, its judge) with
# run_guest handing its QEMU command to tests/lava/boot.sh: the jobs and
# their artifacts land in O/lava/LIST/.../lava-job (O/lava-jobs/... for
# lava-job), and a boot's LAVA counts are compared with the direct run's
# in O/LIST/... when that run is there (LAVA_REQUIRE_REFERENCE=1: it
# must be). Ends with "N passed, N failed".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../qemu/boots.sh"
mode=$1 o=$(realpath -m -- "$2")
shift 2
case "$mode" in
lava) root=$o/lava ;;
lava-job) root=$o/lava-jobs ;;
list) ;;
*) echo "run.sh: MODE lava, lava-job or list" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || { echo "run.sh: name a boot" >&2; exit 2; }

passed=0 failed=0
for boot in "$@"; do
	target=${boot%@*} kver=6.1
	[ "$target" = "$boot" ] || kver=${boot#*@}
	if [[ ! "$target" =~ ^[a-z0-9_-]+$ ]]; then
		echo "[lava] $boot: not a name of a list or a boot, [@6.12]" >&2
		failed=$((failed + 1)); continue
	elif [ -d "$BOOTS_DIR/$target" ]; then
		make_args=("$target") summary=$target
		[ "$mode" != list ] || { echo "$boot: $(list_boots "$target" | tr '\n' ' ')"; continue; }
	elif boot_list "$target" >/dev/null; then
		make_args=(machines MACHINES="$target") summary=machines
		[ "$mode" != list ] || { echo "$boot: $target"; continue; }
	else
		echo "[lava] $boot: neither a list of boots ($(boot_lists | tr '\n' ' ')) nor a boot, [@6.12]" >&2
		failed=$((failed + 1)); continue
	fi
	args=(KVER="$kver")
	# The 6.12 runs use the default tree and builds (make check's
	# CHECK_ARGS_6.12).
	[ "$kver" = 6.1 ] || args+=(KSRC= KBUILD= KBUILD_KASAN= KBUILD_PARISC=)
	suffix=""
	[ "$kver" = 6.1 ] || suffix=-$kver
	echo "[lava] === $boot ($mode)"
	# The runner's last line, as its target's summarised recipe tees it
	# (a failed runner stops the recipe before it writes summary): none
	# left from an earlier run.
	log="$root/$summary$suffix/summary.log"
	rm -f "$log"
	set +e
	GUEST_VIA=$mode LAVA_OUT_ROOT=$root LAVA_REF_ROOT=$o \
		make --no-print-directory -C "$here/../.." "${make_args[@]}" O="$root" "${args[@]}"
	rc=$?
	set -e
	line=$(tail -n 1 "$log" 2>/dev/null || true)
	if [[ ! "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
		echo "[lava] $boot: no result (see $log)"
		failed=$((failed + 1))
		continue
	fi
	passed=$((passed + BASH_REMATCH[1]))
	failed=$((failed + BASH_REMATCH[2]))
	if [ "$rc" -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ]; then
		echo "[lava] $boot: make ${make_args[*]} failed with no failed result (see $log)"
		failed=$((failed + 1))
	fi
done
[ "$mode" != list ] || exit "$((failed > 0))"
[ "$mode" != lava-job ] || echo "[lava] jobs in $root/*/.../lava-job/job.yaml"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
