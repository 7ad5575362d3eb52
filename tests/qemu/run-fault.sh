#!/usr/bin/env bash
# make qemu-fault / make qemu-kasan: the fault run on the x86 kernel of
# make qemu, or on its KASAN + kmemleak build (KVARIANT=kasan). Usage:
# run-fault.sh OUTDIR. Ends with "N passed, N failed".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../kport/env.sh"
source "$here/guest.sh"
out=$1
t0=$(date +%s)

# The knobs (read again by boot-fault.sh), refused before a long build.
procs=${FAULT_PROCS:-6} rounds=${FAULT_ROUNDS:-2} failslab=${FAULT_FAILSLAB:-10,30,100}
[[ "$procs" =~ ^[0-9]+$ ]] && [ "$procs" -ge 3 ] && [ "$procs" -le 16 ] ||
	{ echo "[qemu-fault] FAULT_PROCS=$procs: 3 to 16 (two on virtio-scsi, the rest on scsi_debug, 24 MiB of guest memory each)" >&2; exit 2; }
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] ||
	{ echo "[qemu-fault] FAULT_ROUNDS=$rounds: a positive count" >&2; exit 2; }
[[ "$failslab" =~ ^[0-9]+(,[0-9]+)*$ ]] &&
	! tr , '\n' <<< "$failslab" | awk '$1 > 100 || $1 < 1 { bad = 1 } END { exit !bad }' ||
	{ echo "[qemu-fault] FAULT_FAILSLAB=$failslab: comma-separated percentages, 1 to 100" >&2; exit 2; }

"$REPO/kport/tree.sh"
"$REPO/kport/build.sh"
t1=$(date +%s)
# The KTAP suites in boot order (ktap.py checks it; make lava's monitors
# wait for them so).
export GUEST_SUITES="sg_chain_fault sg_chain_real_faults fault_load"
"$here/boot-fault.sh" "$KBUILD/$KIMAGE" "$out" "$([ "$KVARIANT" = kasan ] && echo 1 || echo 0)"
t2=$(date +%s)
echo "[qemu-fault] ${KVARIANT:-plain} kernel: build $((t1 - t0)) s, boot and load $((t2 - t1)) s"
# A job only written (job.py named it, and checked it): one result.
guest_via_judge "$out" || { echo "1 passed, 0 failed"; exit 0; }
grep -E "^    # (phase|failslab|before|after)" "$out/console.log" | sed 's/^    # /[qemu-fault] /' || true
echo "[qemu-fault] results (console log: $out/console.log):"
judge=(--no-skip sg_chain_real_faults --require-line "sgchain-init: done")
for s in $GUEST_SUITES; do judge+=(--expect "$s"); done
"$here/ktap.py" "${judge[@]}" "$out/console.log" "${GUEST_VIA_LOGS[@]}"
