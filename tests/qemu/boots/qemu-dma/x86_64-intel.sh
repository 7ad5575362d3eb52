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
# Linux 6.12's megaraid_sas behind QEMU 7.2's IOMMUs hangs or not by
# timing alone, with the series as without it (docs/linux-6.12.md): there
# it runs under swiotlb only.
[ "${KVER:-6.1}" != 6.12 ] || BOOT_DISKS=(virtio_scsi ahci)
