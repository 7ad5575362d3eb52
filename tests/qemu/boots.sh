# Sourced by the QEMU runner (tests/qemu/run.sh), the boot script and the
# Makefile's lists: the boots there are, and what each one is.
#
# A boot is one file, tests/qemu/boots/LIST/NAME.sh: one guest of one
# kernel (kport/kernels/) on one QEMU machine. LIST is the make target
# that boots it with the others of its directory (qemu, qemu-dma,
# qemu-fault, qemu-kasan, qemu-parisc, qemu-arch); make machines
# MACHINES='NAME ..' boots any. Its outputs go to O/LIST/NAME, or to
# O/LIST where the list holds that one boot (O/LIST-6.12 for KVER=6.12).
#
# The file sets, over the defaults of boot_load:
#   BOOT_KERNEL    the kernel it boots (kport/kernels/KERNEL.sh)
#   BOOT_NOTE      a few words: the machine and the way it maps
#   BOOT_QEMU      QEMU up to its disks: binary, machine, CPU, memory, and
#                  the devices the machine needs (IOMMUs)
#   BOOT_CMDLINE   kernel parameters: console, the run's, the suites'
#                  (the boot adds panic, oops and rdinit)
#   BOOT_INIT      the guest's PID 1, a file of tests/qemu/guest: a
#                  busybox script (.sh; x86 only: the host's busybox) or C
#                  (.c, built with the kernel's GUEST_CC, with sgio)
#   BOOT_SUITES    the KTAP suites in the order the boot prints them
#                  (the judge checks it; make lava's monitors wait so)
#   BOOT_NO_SKIP   cases (suite/case prefixes) that must run, not skip
#   BOOT_WARNINGS  kernel warnings the judge excuses (regular expressions,
#                  each with its reason in the file), and nothing else
#   BOOT_SKIP_NOTES  SUITE=TEXT: where a suite's skipped cases do run
#   BOOT_END       reboot, or poweroff where the firmware cannot reboot
#                  (QEMU runs with -no-reboot; a panic stops it either way)
#   BOOT_DEBS      Debian packages the boot needs beyond its kernel's
#   BOOT_DISKS     drivers the boot gets a disk behind each (boot_disk)
#   BOOT_DISK_BUS  the PCI bus their controllers go on (QEMU's name)
# and may define hooks: boot_check (refuse bad knobs before any build),
# boot_prepare OUTDIR CONFIG (what is chosen per boot or read from the
# kernel's .config: adds to BOOT_DEVICES and BOOT_CMDLINE, or names
# BOOT_ENV, a file the initramfs carries as /sgchain.env) and boot_report
# OUTDIR (lines to print before the results).
#
# The boots of init-dma.c (dma_boot) also set:
#   BOOT_MAPPER    the function its dma_map_sg() ends in
#   BOOT_MODE      the sg_chain_dma cases that must run: iommu (dma-iommu),
#                  swiotlb, arch_iommu (the architecture's own) or direct
#   BOOT_TAG0      drivers whose transfer of 1 KiB pieces starts at blk-mq
#                  tag 0, each with its reason
#   BOOT_DMA_KNOWN DMA-API debug's error count after the drivers' probes
#   BOOT_FIO       1: fio's jobs on each disk too (x86-64: the host's fio)

QEMU_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BOOTS_DIR=$QEMU_DIR/boots

# Every boot, LIST/NAME, sorted by name within each list.
boot_paths() {
	local f
	for f in "$BOOTS_DIR"/*/*.sh; do
		[ -f "$f" ] || continue
		f=${f#"$BOOTS_DIR/"}
		echo "${f%.sh}"
	done
}
boot_names() { boot_paths | sed 's|.*/||'; }
boot_lists() { boot_paths | sed 's|/.*||' | uniq; }
list_boots() { boot_paths | awk -F/ -v l="$1" '$1 == l { print $2 }'; } # LIST: its boots
boot_list() { # NAME: the list that holds it
	local paths p
	paths=$(boot_paths)
	p=$(awk -F/ -v n="$1" '$2 == n' <<< "$paths")
	[ -n "$p" ] || return 1
	[ "$(wc -l <<< "$p")" -eq 1 ] ||
		{ echo "[qemu] error: boot $1 is in more than one list: $(echo $p)" >&2; return 1; }
	echo "${p%/*}"
}
# Where a boot's outputs go, under O.
boot_out() { # NAME
	local list suffix=""
	list=$(boot_list "$1")
	[ "${KVER:-6.1}" = 6.1 ] || suffix=-$KVER
	if [ "$(list_boots "$list" | wc -l)" -eq 1 ]; then
		echo "$list$suffix"
	else
		echo "$list$suffix/$1"
	fi
}

# Kernel parameters every x86 guest gets. On a busy host TCG reads the
# clocksource watchdog slowly, and the kernel says "clocksource: Long
# readout interval, skipping watchdog check" (or marks the TSC unstable) in
# the middle of a run whose log must stay quiet. tsc=reliable takes the TSC
# off the watchdog's list; with no clocksource left to verify, the
# watchdog never runs.
X86_GUEST_ARGS="tsc=reliable"

boot_load() { # NAME: its file over the defaults
	local list
	list=$(boot_list "$1") || {
		echo "[qemu] error: no boot $1 (the boots: $(boot_names | tr '\n' ' '))" >&2
		return 1
	}
	BOOT_KERNEL="" BOOT_NOTE="" BOOT_QEMU=() BOOT_CMDLINE="" BOOT_INIT=""
	BOOT_SUITES=() BOOT_NO_SKIP=() BOOT_WARNINGS=() BOOT_SKIP_NOTES=() BOOT_END=reboot
	BOOT_DEBS=() BOOT_DEVICES=() BOOT_ENV=""
	BOOT_DISKS=() BOOT_DISK_BUS="" BOOT_MAPPER="" BOOT_MODE="" BOOT_TAG0=()
	BOOT_DMA_KNOWN=0 BOOT_FIO=""
	unset -f boot_check boot_prepare boot_report
	boot_check() { :; }
	boot_prepare() { :; }
	boot_report() { :; }
	source "$BOOTS_DIR/$list/$1.sh"
	[ -n "$BOOT_KERNEL" ] && [ -n "$BOOT_INIT" ] && [ ${#BOOT_QEMU[@]} -gt 0 ] || {
		echo "[qemu] error: $BOOTS_DIR/$list/$1.sh sets no BOOT_KERNEL, BOOT_INIT or BOOT_QEMU" >&2
		return 1
	}
}

# The defaults of a boot of init-dma.c: every sg_chain suite, then big I/O
# through each disk of BOOT_DISKS (tests/qemu/guest/init-dma.c), judged
# as make qemu-dma and make qemu-arch judge.
dma_boot() {
	BOOT_INIT=init-dma.c
	BOOT_SUITES=(sg_chain sg_chain_fault sg_chain_real_faults sg_chain_pages sg_chain_dma sg_chain_dma_io)
	# slub_debug=A marks the sg pools for failslab (sg_chain_real_faults);
	# no scsi_debug host: the disks are the machine's.
	BOOT_CMDLINE="kunit.filter_glob=sg_chain* slub_debug=A,sgpool-* scsi_debug.add_host=0"
	# virtio-scsi's 8 event buffers, 56 bytes apart, are mapped for the
	# device to write, and each one that starts in a cache line another
	# starts in is an EEXIST error of DMA-API debug: counted in
	# BOOT_DMA_KNOWN, and its one warning excused.
	BOOT_WARNINGS=('cacheline tracking EEXIST.*virtscsi_kick_event.*virtscsi_probe')
	BOOT_DMA_KNOWN=1
	boot_prepare() { dma_boot_env "$@"; }
}

# The settings of init-dma.c, in the initramfs: alpha's and sparc32's
# command lines hold 255 bytes (KCMDLINE_MAX).
dma_boot_env() { # OUTDIR CONFIG
	BOOT_ENV=$1/sgchain.env
	{
		echo "sgchain_mapper=$BOOT_MAPPER"
		echo "sgchain_mode=$BOOT_MODE"
		echo "sgchain_end=$BOOT_END"
		echo "sgchain_dma_known=$BOOT_DMA_KNOWN"
		# What the build can do: count the mapper's calls with the
		# function tracer (alpha and sparc32 have none), chain lists
		# (alpha cannot).
		grep -qx 'CONFIG_FUNCTION_TRACER=y' "$2" || echo "sgchain_untraced=1"
		! grep -qx 'CONFIG_ARCH_NO_SG_CHAIN=y' "$2" || echo "sgchain_nochain=1"
		echo "sgchain_tag0=$(IFS=,; echo "${BOOT_TAG0[*]}")"
		echo "sgchain_disks=$(IFS=,; echo "${BOOT_DISKS[*]}")"
		[ "$BOOT_FIO" != 1 ] || echo "sgchain_fio=1"
	} > "$BOOT_ENV"
}

# The QEMU arguments of a disk of DRIVER on IMAGE, as DISK_ARGS: its
# controller on BOOT_DISK_BUS, or where the machine puts it.
boot_disk() { # DRIVER IMAGE ID
	local drv=$1 img=$2 id=$3 bus=${BOOT_DISK_BUS:+,bus=$BOOT_DISK_BUS}
	DISK_ARGS=(-drive "file=$img,if=none,id=$id,format=raw")
	case "$drv" in
	# iommu_platform: virtio_ring maps through the DMA API, not around it.
	virtio_scsi) DISK_ARGS+=(-device "virtio-scsi-pci,id=c$id,disable-legacy=on,iommu_platform=on$bus"
				 -device "scsi-hd,drive=$id,bus=c$id.0") ;;
	megaraid_sas) DISK_ARGS+=(-device "megasas-gen2,id=c$id$bus"
				  -device "scsi-hd,drive=$id,bus=c$id.0") ;;
	ahci) DISK_ARGS+=(-device "ich9-ahci,id=c$id$bus" -device "ide-hd,drive=$id,bus=c$id.0") ;;
	ibmvscsi) DISK_ARGS+=(-device "spapr-vscsi,id=c$id" -device "scsi-hd,drive=$id,bus=c$id.0") ;;
	# The machine's own ESP: SCSI targets by unit.
	esp) DISK_ARGS=(-drive "file=$img,if=scsi,bus=0,unit=${id#disk},format=raw") ;;
	sym53c8xx) DISK_ARGS+=(-device "lsi53c895a,id=c$id$bus" -device "scsi-hd,drive=$id,bus=c$id.0") ;;
	*) echo "[qemu] error: no disk for driver $drv" >&2; return 1 ;;
	esac
}
