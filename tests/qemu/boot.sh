#!/usr/bin/env bash
# Boot the kport kernel under QEMU (TCG) with the test initramfs and keep
# the console log. Usage: boot.sh BZIMAGE OUTDIR
#   OUTDIR/console.log   everything the guest printed
#   OUTDIR/virtio.img    the virtio-blk disk, checked here after exit
# A watchdog (QEMU_TIMEOUT, default 600 s) ends a hung guest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/guest.sh"
bzimage=$1 out=$2
mkdir -p "$out"

# The initramfs, and sgio for checking the virtio disk here.
x86_initramfs "$out" "$here/init"
gcc -O2 -Wall -Wextra -Werror -o "$out/sgio-host" "$here/sgio.c"

rm -f "$out/virtio.img"
truncate -s 64M "$out/virtio.img"

# The pattern the guest writes to virtio-blk, checked here after exit.
virtio_bytes=$((4 * 1024 * 1024)) virtio_seed=$(( (RANDOM << 16) | RANDOM ))

cmdline="console=ttyS0 $X86_GUEST_ARGS panic=-1 oops=panic rdinit=/init"
cmdline+=" kunit.filter_glob=sg_chain* slub_debug=A,sgpool-*"
cmdline+=" scsi_debug.dev_size_mb=96"
cmdline+=" sgchain_virtio_bytes=$virtio_bytes sgchain_virtio_seed=$virtio_seed"

run_guest "$out" qemu-system-x86_64 \
	-machine pc -accel tcg -m 1G -smp 1 \
	-nographic -no-reboot \
	-kernel "$bzimage" -initrd "$out/initramfs.cpio.gz" -append "$cmdline" \
	-drive file="$out/virtio.img",if=virtio,format=raw

ktap_line() { printf 'KTAP version 1\n1..1\n%s\n' "$1" > "$out/host.ktap"; }
if "$out/sgio-host" check "$out/virtio.img" 0 "$virtio_bytes" "$virtio_seed" \
	> "$out/host-check.log" 2>&1; then
	ktap_line "ok 1 virtio_blk_backing_file_has_pattern"
else
	ktap_line "not ok 1 virtio_blk_backing_file_has_pattern # $(head -n 1 "$out/host-check.log")"
fi
cat "$out/host-check.log"
