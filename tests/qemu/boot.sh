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
boot_prepare "$out"

# A panic reboots, and -no-reboot ends QEMU; where the firmware cannot
# reboot ("Reboot failed!" panics again, for ever) the kernel stops in its
# panic and run_guest ends QEMU.
panic=-1
[ "$BOOT_END" = reboot ] || panic=0
cmdline="$BOOT_CMDLINE panic=$panic oops=panic rdinit=/init"

env=""
if [ "$BOOT_INIT" = init-dma.c ]; then
	n=0
	for drv in "${BOOT_DISKS[@]}"; do
		# 8 MiB twice, and the scattered transfers: 50 MiB with 8 KiB
		# pages; fio's jobs from 64 MiB on.
		rm -f "$out/$drv.img" && truncate -s 128M "$out/$drv.img"
		boot_disk "$drv" "$out/$drv.img" "disk$((n++))"
		BOOT_DEVICES+=("${DISK_ARGS[@]}")
	done
	# libata caps a disk at 128 KiB a command under QEMU; lba48's cap
	# lets AHCI take as many entries as its 168-entry table holds.
	[[ " ${BOOT_DISKS[*]} " != *" ahci "* ]] || cmdline+=" libata.force=max_sec_lba48"
	# The init's settings travel in the initramfs: alpha's and sparc32's
	# command lines hold 255 bytes (KCMDLINE_MAX).
	env=$out/sgchain.env
	{
		echo "sgchain_mapper=$BOOT_MAPPER"
		echo "sgchain_mode=$BOOT_MODE"
		echo "sgchain_end=$BOOT_END"
		echo "sgchain_dma_known=$BOOT_DMA_KNOWN"
		# What the build can do: count the mapper's calls with the
		# function tracer (alpha and sparc32 have none), chain lists
		# (alpha cannot).
		grep -qx 'CONFIG_FUNCTION_TRACER=y' "$config" || echo "sgchain_untraced=1"
		! grep -qx 'CONFIG_ARCH_NO_SG_CHAIN=y' "$config" || echo "sgchain_nochain=1"
		echo "sgchain_no_pieces=$(IFS=,; echo "${BOOT_NO_PIECES[*]}")"
		echo "sgchain_disks=$(IFS=,; echo "${BOOT_DISKS[*]}")"
		[ "$BOOT_FIO" != 1 ] || echo "sgchain_fio=1"
	} > "$env"
fi
[ ${#cmdline} -lt "$KCMDLINE_MAX" ] ||
	{ echo "boot.sh: command line over $((KCMDLINE_MAX - 1)) bytes, $KERNEL's most: $cmdline" >&2; exit 1; }
guest_initramfs "$out" "$BOOT_INIT" "$([ "$BOOT_FIO" = 1 ] && echo fio)" "$env"

run_guest "$out" "${BOOT_QEMU[@]}" -accel tcg -smp 1 -nographic -no-reboot "${BOOT_DEVICES[@]}" \
	-kernel "$image" -initrd "$out/initramfs.cpio.gz" -append "$cmdline"
