#!/usr/bin/env bash
# Boot the parisc kport kernel (no scatterlist chaining) under QEMU's B160L
# with a static C init and keep the console log. Usage: boot-parisc.sh
# VMLINUX OUTDIR. There is no busybox for parisc here: init and sgio are
# C, built static with the cross compiler. A watchdog (QEMU_TIMEOUT,
# default 600 s) ends a hung guest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/guest.sh"
vmlinux=$1 out=$2
cc=hppa-linux-gnu-gcc
mkdir -p "$out"

root="$out/initramfs"
rm -rf "$root" && mkdir -p "$root"/{bin,dev,proc,sys,tmp}
"$cc" -O2 -static -Wall -Wextra -Werror -o "$root/init" "$here/init-static.c"
"$cc" -O2 -static -Wall -Wextra -Werror -o "$root/bin/sgio" "$here/sgio.c"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.cpio.gz"

# SG_MAX_SEGMENTS without chaining is SG_CHUNK_SIZE: one table per command.
cmdline="console=ttyS0 panic=-1 oops=panic rdinit=/init"
cmdline+=" kunit.filter_glob=sg_chain* scsi_debug.dev_size_mb=32"
cmdline+=" sgchain_max_segments=128"

run_guest "$out" qemu-system-hppa -M hppa -m 512 -nographic -no-reboot \
	-kernel "$vmlinux" -initrd "$out/initramfs.cpio.gz" -append "$cmdline"
