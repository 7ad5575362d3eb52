#!/usr/bin/env bash
# Boot an architecture's kport kernel on its machine (kport/arches.sh) with
# a disk behind each driver of its row and keep the console log. Usage:
# boot-arch.sh ARCH RUN IMAGE OUTDIR, RUN one of the row's GUEST_RUNS. The
# initramfs holds init-arch.c and sgio, built with the architecture's
# compiler (static, or with their libraries: GUEST_LIBS). A watchdog
# (QEMU_TIMEOUT, default 600 s) ends a hung guest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/guest.sh"
source "$here/../../kport/arches.sh"
arch=$1 run=$2 image=$3 out=$4
arch_describe "$arch"
arch_run "$arch" "$run"
mkdir -p "$out"
# The image's .config (run-arch.sh exports the build directory).
config="${KBUILD:?boot-arch.sh: KBUILD unset}/.config"
[ -f "$config" ] || { echo "boot-arch.sh: no $config" >&2; exit 1; }

root="$out/initramfs"
rm -rf "$root" && mkdir -p "$root"/{bin,dev,proc,sys,tmp}
"${GUEST_CC[@]}" -O2 -Wall -Wextra -Werror -o "$root/init" "$here/init-arch.c"
"${GUEST_CC[@]}" -O2 -Wall -Wextra -Werror -o "$root/bin/sgio" "$here/sgio.c"
# Built dynamic: the loader they name and the libraries they need, from
# the cross sysroot.
if [ -n "$GUEST_LIBS" ]; then
	readelf=${GUEST_CC[0]%gcc}readelf
	mkdir -p "$root/lib"
	for prog in "$root/init" "$root/bin/sgio"; do
		interp=$("$readelf" -lW "$prog" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
		[ -n "$interp" ] || { echo "boot-arch.sh: $prog names no loader" >&2; exit 1; }
		mkdir -p "$root$(dirname "$interp")"
		cp -L "$GUEST_LIBS/$(basename "$interp")" "$root$interp"
		for lib in $("$readelf" -dW "$prog" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			cp -L "$GUEST_LIBS/$lib" "$root/lib/$lib"
		done
	done
fi

# Every sg_chain suite; slub_debug=A marks the sg pools for failslab
# (sg_chain_real_faults); no scsi_debug host: the disks are the machine's.
# A panic reboots, and -no-reboot ends QEMU; where the firmware cannot
# reboot ("Reboot failed!" panics again, for ever) the kernel stops in its
# panic and run_guest ends QEMU.
panic=-1
[ "$GUEST_END" = reboot ] || panic=0
cmdline="$GUEST_CMDLINE${RUN_CMDLINE:+ $RUN_CMDLINE} panic=$panic oops=panic rdinit=/init"
cmdline+=" kunit.filter_glob=sg_chain* slub_debug=A,sgpool-* scsi_debug.add_host=0"
# libata caps a disk at 128 KiB a command under QEMU; lba48's cap lets
# AHCI take as many entries as its 168-entry table holds.
[[ " ${RUN_DISKS[*]} " != *" ahci "* ]] || cmdline+=" libata.force=max_sec_lba48"
# alpha's and sparc's command lines hold 255 bytes: the init's settings
# travel in the initramfs.
[ ${#cmdline} -lt 256 ] || { echo "boot-arch.sh: command line over 255 bytes: $cmdline" >&2; exit 1; }
{
	echo "sgchain_mapper=$GUEST_MAPPER"
	echo "sgchain_mode=$GUEST_MODE"
	echo "sgchain_end=$GUEST_END"
	echo "sgchain_dma_known=$DMA_KNOWN"
	# What the build can do: count the mapper's calls with the function
	# tracer (alpha and sparc32 have none), chain lists (alpha cannot).
	grep -qx 'CONFIG_FUNCTION_TRACER=y' "$config" || echo "sgchain_untraced=1"
	! grep -qx 'CONFIG_ARCH_NO_SG_CHAIN=y' "$config" || echo "sgchain_nochain=1"
	echo "sgchain_no_pieces=$(IFS=,; echo "${RUN_NO_PIECES[*]}")"
	echo "sgchain_disks=$(IFS=,; echo "${RUN_DISKS[*]}")"
	[ "$GUEST_FIO" != 1 ] || echo "sgchain_fio=1"
} > "$root/sgchain.env"
[ "$GUEST_FIO" != 1 ] || add_fio "$root"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.cpio.gz"

qemu=("${QEMU[@]}" -accel tcg -smp 1 -nographic -no-reboot "${RUN_QEMU[@]}")
n=0
for drv in "${RUN_DISKS[@]}"; do
	# 8 MiB twice, and the scattered transfers: 50 MiB with 8 KiB pages;
	# fio's jobs from 64 MiB on.
	rm -f "$out/$drv.img" && truncate -s 128M "$out/$drv.img"
	arch_disk "$drv" "$out/$drv.img" "disk$((n++))"
	qemu+=("${DISK_ARGS[@]}")
done

run_guest "$out" "${qemu[@]}" -kernel "$image" -initrd "$out/initramfs.cpio.gz" \
	-append "$cmdline"
