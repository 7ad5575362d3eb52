#!/usr/bin/env bash
# make qemu: the kernel tree with sgchain's series, built, booted under QEMU,
# its KTAP judged. Usage: run.sh OUTDIR. Ends with "N passed, N failed".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../kport/env.sh"
out=$1
t0=$(date +%s)

"$REPO/kport/tree.sh"
t1=$(date +%s)
"$REPO/kport/build.sh"
t2=$(date +%s)
"$here/boot.sh" "$KBUILD/arch/x86/boot/bzImage" "$out"
t3=$(date +%s)

echo "[qemu] tree $((t1 - t0)) s, build $((t2 - t1)) s, boot and I/O $((t3 - t2)) s"
echo "[qemu] results (console log: $out/console.log):"
"$here/ktap.py" \
	--expect sg_chain --expect sg_chain_fault --expect sg_chain_io \
	--expect virtio_blk_backing_file_has_pattern \
	--require-line "sgchain-init: done" \
	"$out/console.log" "$out/host.ktap"
