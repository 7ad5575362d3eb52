#!/usr/bin/env bash
# make qemu-arch (and make qemu-dma, on x86_64): the series built once for
# each architecture named (kport/arches.sh: its fragment, its compiler),
# booted on its machine once per run of its row, each boot's KTAP judged on
# its own: the KUnit suites in the form the architecture gets, and big I/O
# through the disks its mapper maps for. Usage: run-arch.sh OUTDIR ARCH...;
# ARCH_RUNS, if set, picks runs of the rows (default: every run).
# Prints a line per boot, then the total "N passed, N failed".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/guest.sh"
out=$1
shift
[ $# -gt 0 ] || { echo "run-arch.sh: name an architecture" >&2; exit 2; }
mkdir -p "$out"

arch_boots() { # ARCH: build, then boot every run; a line per boot
	local arch=$1 run t0 judge c
	# make's ARCH= (which architectures) is not the kernel's ARCH.
	unset ARCH
	# make's KBUILD names x86_64's build; the others have their own.
	[ "$arch" = x86_64 ] || KBUILD=
	export KARCH=$arch KBUILD
	source "$here/../../kport/env.sh"
	# Run where errexit is ignored (a pipeline under ||): every step that
	# must stop the architecture says so, or a failed build boots the
	# image the last one left.
	"$REPO/scripts/deps.sh" "${KDEBS[@]}" || return
	"$REPO/kport/tree.sh" || return
	"$REPO/kport/build.sh" || return
	for run in ${ARCH_RUNS:-${GUEST_RUNS[@]}}; do
		arch_run "$arch" "$run"
		t0=$(date +%s)
		# The KTAP suites in boot order (ktap.py checks it; make
		# lava's monitors wait for them so).
		export GUEST_SUITES="sg_chain sg_chain_fault sg_chain_real_faults sg_chain_pages sg_chain_dma sg_chain_dma_io"
		# errexit is off here (see above): a boot, or a LAVA job, that
		# could not even start fails the run, not judged from old logs.
		if ! "$here/boot-arch.sh" "$arch" "$run" "$KBUILD/$KIMAGE" "$out/$arch-$run"; then
			echo "[qemu-arch] $arch-$run ($RUN_NOTE): 0 passed, 1 failed (the boot did not run; see above)"
			continue
		fi
		if ! guest_via_judge "$out/$arch-$run"; then
			echo "[qemu-arch] $arch-$run ($RUN_NOTE): 1 passed, 0 failed (LAVA job written: $out/$arch-$run/lava-job/job.yaml)"
			continue
		fi
		judge=(--require-line "sgchain-init: done"
		       --allow-warning 'cacheline tracking EEXIST.*virtscsi_kick_event.*virtscsi_probe')
		for c in $GUEST_SUITES; do judge+=(--expect "$c"); done
		# The cases this machine has the mapper for must run, not skip.
		judge+=(--no-skip "sg_chain_dma/sg_chain_dma_test_${GUEST_MODE}_")
		for c in "${KUNIT_MUST_RUN[@]}"; do judge+=(--no-skip "$c"); done
		for c in "${KNOWN_WARNINGS[@]}"; do judge+=(--allow-warning "$c"); done
		set +e
		"$here/ktap.py" "${judge[@]}" "$out/$arch-$run/console.log" \
			"${GUEST_VIA_LOGS[@]}" > "$out/$arch-$run/summary.log"
		set -e
		echo "[qemu-arch] $arch-$run ($RUN_NOTE): $(tail -n 1 "$out/$arch-$run/summary.log") ($(( $(date +%s) - t0 )) s; console: $out/$arch-$run/console.log)"
		grep -v "^[0-9]* passed" "$out/$arch-$run/summary.log" | sed 's/^/    /'
	done
}

passed=0 failed=0
for arch in "$@"; do
	# A build or boot that fails is a failed architecture, not the end.
	(arch_boots "$arch") 2>&1 | tee "$out/$arch.log" || true
	lines=$(grep -E "^\[qemu-arch\] $arch-" "$out/$arch.log" |
		sed -n "s/.*: \([0-9]* passed, [0-9]* failed\).*/\1/p" || true)
	if [ -z "$lines" ]; then
		echo "[qemu-arch] $arch: no result (see $out/$arch.log)"
		failed=$((failed + 1))
		continue
	fi
	passed=$((passed + $(echo "$lines" | awk '{ s += $1 } END { print s }')))
	failed=$((failed + $(echo "$lines" | awk '{ s += $3 } END { print s }')))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
