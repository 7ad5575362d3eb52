# 64-bit little-endian powerpc on QEMU's pseries: the TCE tables
# (ppc_iommu_map_sg). With dynamic DMA windows the 64-bit devices would
# bypass them: off, so every device maps through them.
dma_boot
BOOT_KERNEL=ppc64le
BOOT_NOTE="pseries, TCE tables"
BOOT_QEMU=(qemu-system-ppc64 -M pseries -m 2G -vga none -global spapr-pci-host-bridge.ddw=off)
BOOT_CMDLINE="console=hvc0 $BOOT_CMDLINE"
BOOT_DISKS=(ibmvscsi virtio_scsi megaraid_sas ahci)
BOOT_MAPPER=ppc_iommu_map_sg BOOT_MODE=arch_iommu
# virtio-scsi's event buffers with 128-byte cache lines: four share one.
BOOT_DMA_KNOWN=4
