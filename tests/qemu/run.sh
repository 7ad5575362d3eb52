#!/usr/bin/env bash
# The QEMU runner of make qemu, qemu-dma, qemu-fault, qemu-kasan,
# qemu-parisc, qemu-arch (each the boots of its directory in
# tests/qemu/boots) and make machines (MACHINES=). Usage: run.sh OUTDIR O
# BOOT...: each boot's kernel (kport/kernels) is built once, with its
# packages and tree, and booted for each of its boots (tests/qemu/boot.sh),
# whose KTAP is judged on its own (tests/qemu/ktap.py). Prints the judge's
# table and a line per boot, then "N passed, N failed" over them all (and
# the skipped count). Each kernel's log goes to OUTDIR/KERNEL.log; each
# boot's outputs to O/LIST/NAME (tests/qemu/boots.sh: boot_out), its
# judge's table to judged.log there.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/host.sh"
source "$here/boots.sh"
outdir=$1 o=$2
shift 2
[ $# -gt 0 ] || { echo "run.sh: name a boot (the boots: $(boot_names | tr '\n' ' '))" >&2; exit 2; }
mkdir -p "$outdir"

# Every boot known and its knobs sound before anything is built; each
# kernel once, in the order the boots first name it, with its boots.
kernels=()
declare -A boots_of
for b; do
	boot_load "$b" || exit 2
	boot_check || exit 2
	[ -n "${boots_of[$BOOT_KERNEL]+x}" ] || kernels+=("$BOOT_KERNEL")
	boots_of[$BOOT_KERNEL]+=" $b"
done

kernel_boots() { # KERNEL BOOT...: build it, then its boots; a line per boot
	local kernel=$1 b t0 t1 dir judge c debs=() list rc result
	shift
	export KERNEL=$kernel
	source "$here/../../kport/env.sh"
	for b; do boot_load "$b" && debs+=("${BOOT_DEBS[@]}"); done
	# Run where errexit is ignored (a pipeline under ||): every step that
	# must stop the kernel says so, or a failed build boots the image the
	# last one left.
	t0=$(date +%s)
	"$REPO/scripts/deps.sh" "${KDEBS[@]}" "${debs[@]}" || return
	"$REPO/kport/tree.sh" || return
	t1=$(date +%s)
	"$REPO/kport/build.sh" || return
	echo "[qemu] kernel $kernel (Linux $KVER): tree $((t1 - t0)) s, build $(( $(date +%s) - t1 )) s"
	export KBUILD
	for b; do
		boot_load "$b"
		list=$(boot_list "$b")
		dir=$o/$(boot_out "$b")
		t0=$(date +%s)
		export GUEST_SUITES="${BOOT_SUITES[*]}"
		# errexit is off here (see above): a boot, or a LAVA job, that
		# could not even start fails the run, not judged from old logs.
		if ! "$here/boot.sh" "$b" "$KBUILD/$KIMAGE" "$dir"; then
			echo "[$list] $b ($BOOT_NOTE): 0 passed, 1 failed (the boot did not run; see above)"
			continue
		fi
		if ! guest_via_judge "$dir"; then
			echo "[$list] $b ($BOOT_NOTE): 1 passed, 0 failed (LAVA job written: $dir/lava-job/job.yaml)"
			continue
		fi
		boot_report "$dir"
		judge=(--require-line "sgchain-init: done")
		for c in "${BOOT_SUITES[@]}"; do judge+=(--expect "$c"); done
		# The cases this machine has the mapper for must run, not skip.
		[ -z "$BOOT_MODE" ] || judge+=(--no-skip "sg_chain_dma/sg_chain_dma_test_${BOOT_MODE}_")
		for c in "${BOOT_NO_SKIP[@]}"; do judge+=(--no-skip "$c"); done
		for c in "${BOOT_WARNINGS[@]}"; do judge+=(--allow-warning "$c"); done
		for c in "${BOOT_SKIP_NOTES[@]}"; do judge+=(--skip-note "$c"); done
		rc=0
		"$here/ktap.py" "${judge[@]}" "$dir/console.log" "${GUEST_VIA_LOGS[@]}" > "$dir/judged.log" || rc=$?
		result=$(tail -n 1 "$dir/judged.log")
		# The judge fails a boot that counts no failure too (nothing
		# passed, a missing line): one failure, not a pass.
		if [ "$rc" -ne 0 ] && [[ "$result" =~ ^([0-9]+)\ passed,\ 0\ failed(.*) ]]; then
			result="${BASH_REMATCH[1]} passed, 1 failed${BASH_REMATCH[2]} (the judge failed: $dir/judged.log)"
		fi
		echo "[$list] $b ($BOOT_NOTE): $result ($(( $(date +%s) - t0 )) s; console: $dir/console.log)"
		grep -v "^[0-9]* passed" "$dir/judged.log" | sed 's/^/    /'
	done
}

passed=0 failed=0 skipped=0
for kernel in "${kernels[@]}"; do
	read -ra mine <<< "${boots_of[$kernel]}"
	log=$outdir/$kernel.log
	# A kernel that fails to build fails its boots, not the run.
	(kernel_boots "$kernel" "${mine[@]}") 2>&1 | tee "$log" || true
	for b in "${mine[@]}"; do
		line=$(grep -F "] $b (" "$log" | grep -E '^\[[a-z0-9-]+\] ' | tail -n 1 |
			sed -n 's/.*): \([0-9]* passed, [0-9]* failed[^(]*\) (.*/\1/p' || true)
		if [ -z "$line" ]; then
			echo "[qemu] $b: no result (see $log)"
			failed=$((failed + 1))
			continue
		fi
		read -r p _ f _ s _ <<< "${line//,/}"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
	done
done
echo "$passed passed, $failed failed$([ "$skipped" -eq 0 ] || echo ", $skipped skipped")"
[ "$failed" -eq 0 ]
