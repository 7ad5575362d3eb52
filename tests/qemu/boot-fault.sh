#!/usr/bin/env bash
# Boot an x86 kport kernel for a fault run and keep the console log.
# Usage: boot-fault.sh BZIMAGE OUTDIR [KMEMLEAK]. Disks: scsi_debug (built
# in) and a virtio-scsi disk; the sg pools marked for failslab
# (slub_debug=A,sgpool-*). KMEMLEAK=1 asks init for a leak scan (a kernel
# built with kport/config-kasan). Knobs from the environment:
#   FAULT_PROCS (6), FAULT_ROUNDS (2), FAULT_FAILSLAB (10,30,100).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/guest.sh"
bzimage=$1 out=$2 kmemleak=${3:-0}
procs=${FAULT_PROCS:-6} rounds=${FAULT_ROUNDS:-2} failslab=${FAULT_FAILSLAB:-10,30,100}
# Each scsi_debug process owns 24 MiB of the disk (init-fault's REGION).
dev_size_mb=$(( (procs - 2) * 24 + 4 ))
mkdir -p "$out"

x86_initramfs "$out" "$here/init-fault" fio
# The sgio processes' 48 MiB, then fio's jobs (tests/qemu/fio/fault.fio).
rm -f "$out/vscsi.img" && truncate -s 112M "$out/vscsi.img"

cmdline="console=ttyS0 $X86_GUEST_ARGS panic=-1 oops=panic rdinit=/init"
cmdline+=" kunit.filter_glob=sg_chain*fault* slub_debug=A,sgpool-*"
cmdline+=" scsi_debug.dev_size_mb=$dev_size_mb"
cmdline+=" sgchain_procs=$procs sgchain_rounds=$rounds"
cmdline+=" sgchain_failslab=$failslab sgchain_kmemleak=$kmemleak"

run_guest "$out" qemu-system-x86_64 -machine pc -accel tcg -m 1G -smp 1 \
	-nographic -no-reboot \
	-kernel "$bzimage" -initrd "$out/initramfs.cpio.gz" -append "$cmdline" \
	-drive file="$out/vscsi.img",if=none,id=vs0,format=raw \
	-device virtio-scsi-pci,id=vs -device scsi-hd,drive=vs0,bus=vs.0
