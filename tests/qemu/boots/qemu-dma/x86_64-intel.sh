# The x86-64 kernel on q35 behind QEMU's Intel IOMMU: dma-iommu maps every
# list, strictly (unmap takes every translation down at once).
dma_boot
BOOT_KERNEL=x86_64
BOOT_NOTE="q35, Intel IOMMU"
# QEMU wants the IOMMU before the devices it translates for.
BOOT_QEMU=(qemu-system-x86_64 -M q35 -m 1G -device intel-iommu,intremap=off,caching-mode=on)
BOOT_CMDLINE="console=ttyS0 $X86_GUEST_ARGS iommu.strict=1 intel_iommu=on $BOOT_CMDLINE"
BOOT_DISKS=(virtio_scsi megaraid_sas ahci)
BOOT_MAPPER=iommu_dma_map_sg BOOT_MODE=iommu
BOOT_FIO=1 BOOT_DEBS=(fio)
# QEMU 7.2's megasas maps 2 KiB at each 1 KiB MFI frame and refuses the
# command (BUSY, retried) when the page after the frame is unmapped; Linux
# 6.12's dma_pool, unlike 6.1's, puts a frame at a page's end, and behind
# QEMU's IOMMUs the run then hangs or not by timing alone
# (docs/qemu-megasas-frame.md, make qemu-repro KVER=6.12): on 6.12 megasas
# runs under swiotlb only.
[ "${KVER:-6.1}" != 6.12 ] || BOOT_DISKS=(virtio_scsi ahci)
