#!/usr/bin/env bash
# Boot the x86 kport kernel on q35 for one DMA run and keep the console log.
# Usage: boot-dma.sh MODE BZIMAGE OUTDIR, MODE one of
#   intel     an emulated Intel IOMMU, strict: dma-iommu maps every list
#   amd       the same with an emulated AMD IOMMU
#   swiotlb   no IOMMU, swiotlb=force: dma-direct bounces every list
# Disks whose drivers DMA-map the SCSI midlayer's chained tables:
# virtio-scsi (with the DMA API: iommu_platform), megasas, AHCI, and in the
# swiotlb run lsi53c895a, which fetches its SCRIPTS by DMA from its own BAR
# and faults endlessly behind QEMU's IOMMUs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/guest.sh"
mode=$1 bzimage=$2 out=$3
mkdir -p "$out"

x86_initramfs "$out" "$here/init-dma"

disks=(virtio_scsi megaraid_sas ahci)
# Linux 6.12's megaraid_sas behind QEMU 7.2's IOMMUs hangs or not by timing
# alone, without the series as with it (README, "Linux 6.12"): on 6.12 it
# runs under swiotlb only.
if [ "$mode" != swiotlb ] && [ "${KVER:-6.1}" = 6.12 ]; then
	disks=(virtio_scsi ahci)
fi
qemu=(-machine q35 -accel tcg -m 1G -smp 1 -nographic -no-reboot)
cmdline="console=ttyS0 panic=-1 oops=panic rdinit=/init"
cmdline+=" kunit.filter_glob=sg_chain_dma scsi_debug.add_host=0"
case "$mode" in
intel)
	# The IOMMU first: QEMU wants it before the devices it translates for.
	qemu+=(-device intel-iommu,intremap=off,caching-mode=on)
	cmdline+=" intel_iommu=on iommu.strict=1" ;;
amd)
	qemu+=(-device amd-iommu)
	cmdline+=" iommu.strict=1" ;;
swiotlb)
	cmdline+=" swiotlb=force"
	disks+=(sym53c8xx) ;;
*)
	echo "boot-dma.sh: mode $mode: intel, amd or swiotlb" >&2; exit 2 ;;
esac
cmdline+=" sgchain_dma_mode=$mode sgchain_disks=$(IFS=,; echo "${disks[*]}")"

disk() { # NAME: a 32 MiB raw image, attached below
	rm -f "$out/$1.img" && truncate -s 32M "$out/$1.img"
	qemu+=(-drive "file=$out/$1.img,if=none,id=$1,format=raw")
}
disk vscsi
qemu+=(-device virtio-scsi-pci,id=vs,iommu_platform=on,disable-legacy=on
       -device scsi-hd,drive=vscsi,bus=vs.0)
if [[ " ${disks[*]} " == *" megaraid_sas "* ]]; then
	disk megasas
	qemu+=(-device megasas-gen2,id=mg -device scsi-hd,drive=megasas,bus=mg.0)
fi
disk ahci
qemu+=(-device ide-hd,drive=ahci,bus=ide.0)
if [ "$mode" = swiotlb ]; then
	disk lsi
	qemu+=(-device lsi53c895a,id=lsi -device scsi-hd,drive=lsi,bus=lsi.0)
fi

run_guest "$out" qemu-system-x86_64 "${qemu[@]}" \
	-kernel "$bzimage" -initrd "$out/initramfs.cpio.gz" -append "$cmdline"
