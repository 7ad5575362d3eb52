#!/usr/bin/env bash
# Boot the kport kernel under QEMU (TCG) with the test initramfs and keep
# the console log. Usage: boot.sh BZIMAGE OUTDIR
#   OUTDIR/console.log   everything the guest printed
#   OUTDIR/virtio.img    the virtio-blk disk: /dev/vda, and again, read-only,
#                        /dev/vdb, through which the guest checks what its
#                        writes left in the file (no check after exit: a
#                        LAVA job has nowhere to run one)
# A watchdog (QEMU_TIMEOUT, default 600 s) ends a hung guest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/guest.sh"
bzimage=$1 out=$2
mkdir -p "$out"

x86_initramfs "$out" "$here/init"

rm -f "$out/virtio.img"
truncate -s 64M "$out/virtio.img"

# The pattern the guest writes to virtio-blk and checks in the file.
virtio_bytes=$((4 * 1024 * 1024)) virtio_seed=$(( (RANDOM << 16) | RANDOM ))

cmdline="console=ttyS0 $X86_GUEST_ARGS panic=-1 oops=panic rdinit=/init"
cmdline+=" kunit.filter_glob=sg_chain* slub_debug=A,sgpool-*"
cmdline+=" scsi_debug.dev_size_mb=96"
cmdline+=" sgchain_virtio_bytes=$virtio_bytes sgchain_virtio_seed=$virtio_seed"

# Two opens of one file: QEMU's image locks would refuse the second.
run_guest "$out" qemu-system-x86_64 \
	-machine pc -accel tcg -m 1G -smp 1 \
	-nographic -no-reboot \
	-kernel "$bzimage" -initrd "$out/initramfs.cpio.gz" -append "$cmdline" \
	-drive file="$out/virtio.img",if=virtio,format=raw,file.locking=off \
	-drive file="$out/virtio.img",if=virtio,format=raw,readonly=on,file.locking=off

