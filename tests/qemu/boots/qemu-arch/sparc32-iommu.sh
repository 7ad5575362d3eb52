# sparc32 on QEMU's SPARCstation 5 (sun4m): its one SCSI controller, the
# on-board ESP, maps through the sun4m IOMMU (__sbus_iommu_map_sg) and
# takes 128 segments: one link. No function tracer to count the mapper's
# calls with: every SBus device takes the sun4m IOMMU's DMA ops from
# iommu_init(), and sg_chain_dma's arch_iommu cases map on one of them
# through that table.
dma_boot
BOOT_KERNEL=sparc32
BOOT_NOTE="SS-5, sun4m IOMMU"
BOOT_QEMU=(qemu-system-sparc -M SS-5 -m 256)
# die_if_kernel() ignores oops=panic here: an oops only ends its thread.
# A KUnit case then times out after 300 s, and sg_chain_dma's later cases
# fail at once, naming the list.
BOOT_CMDLINE="console=ttyS0 $BOOT_CMDLINE"
BOOT_END=poweroff
BOOT_DISKS=(esp)
BOOT_MAPPER=__sbus_iommu_map_sg BOOT_MODE=arch_iommu
# No virtio-scsi here, but esp_scsi maps each sense buffer without
# checking the mapping: an error at its unmap, for the disk's and the
# CD-ROM's unit attention at probe.
BOOT_DMA_KNOWN=2
BOOT_WARNINGS+=('esp .*: device driver failed to check map error')
