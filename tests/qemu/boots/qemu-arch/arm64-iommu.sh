# arm64 on QEMU's virt, the SMMUv3 translating for the whole PCIe bus:
# dma-iommu, strict (unmap takes every translation down at once).
dma_boot
BOOT_KERNEL=arm64
BOOT_NOTE="virt, SMMUv3, dma-iommu"
BOOT_QEMU=(qemu-system-aarch64 -M virt,iommu=smmuv3 -cpu cortex-a57 -m 2G)
BOOT_CMDLINE="console=ttyAMA0 iommu.strict=1 $BOOT_CMDLINE"
BOOT_DISKS=(virtio_scsi megaraid_sas ahci)
BOOT_MAPPER=iommu_dma_map_sg BOOT_MODE=iommu
