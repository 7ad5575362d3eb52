#!/usr/bin/env bash
# One boot (tests/qemu/boots.sh): its initramfs, disks and command line,
# then the guest under QEMU (TCG), its console kept. Usage: boot.sh NAME
# IMAGE OUTDIR; IMAGE is a build of the boot's kernel, whose .config (in
# the kernel's build directory, kport/env.sh) says what the guest can do.
#   OUTDIR/console.log   everything the guest printed
#   OUTDIR/qemu.rc       QEMU's exit code
# A watchdog (QEMU_TIMEOUT, default 600 s) ends a hung guest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/boots.sh"
name=$1 image=$2 out=$3
boot_load "$name"
export KERNEL=$BOOT_KERNEL
source "$here/../../kport/env.sh"
source "$here/host.sh"
mkdir -p "$out"
config="$KBUILD/.config"
[ -f "$config" ] || { echo "boot.sh: no $config" >&2; exit 1; }

n=0
for drv in "${BOOT_DISKS[@]}"; do
	# 8 MiB twice, and the scattered transfers: 50 MiB with 8 KiB pages;
	# fio's jobs from 64 MiB on.
	rm -f "$out/$drv.img" && truncate -s 128M "$out/$drv.img"
	boot_disk "$drv" "$out/$drv.img" "disk$((n++))"
	BOOT_DEVICES+=("${DISK_ARGS[@]}")
done
# libata caps a disk at 128 KiB a command under QEMU; lba48's cap lets
# AHCI take as many entries as its 168-entry table holds.
[[ " ${BOOT_DISKS[*]} " != *" ahci "* ]] || BOOT_CMDLINE+=" libata.force=max_sec_lba48"
boot_prepare "$out" "$config"

# A panic reboots, and -no-reboot ends QEMU; where the firmware cannot
# reboot ("Reboot failed!" panics again, for ever) the kernel stops in its
# panic and run_guest ends QEMU.
panic=-1
[ "$BOOT_END" = reboot ] || panic=0
cmdline="$BOOT_CMDLINE panic=$panic oops=panic rdinit=/init"
[ ${#cmdline} -lt "$KCMDLINE_MAX" ] ||
	{ echo "boot.sh: command line over $((KCMDLINE_MAX - 1)) bytes, $KERNEL's most: $cmdline" >&2; exit 1; }
guest_initramfs "$out" "$BOOT_INIT" "$([ "$BOOT_FIO" = 1 ] && echo fio)" "$BOOT_ENV"

run_guest "$out" "${BOOT_QEMU[@]}" -accel tcg -smp 1 -nographic -no-reboot "${BOOT_DEVICES[@]}" \
	-kernel "$image" -initrd "$out/initramfs.cpio.gz" -append "$cmdline"
