# alpha on QEMU's clipper, which cannot chain: the suites in their
# one-table form, lists of up to 128 entries, alpha_pci_map_sg() merging
# them through the Tsunami's arena. No function tracer to count the
# mapper's calls with: alpha_pci_ops is the DMA ops of every PCI device
# (get_arch_dma_ops()), and sg_chain_dma's arch_iommu cases check the
# device's ops are it.
dma_boot
BOOT_KERNEL=alpha
BOOT_NOTE="clipper, Tsunami arena, no chaining"
BOOT_QEMU=(qemu-system-alpha -M clipper -m 1G -vga none -nic none)
BOOT_CMDLINE="console=ttyS0 $BOOT_CMDLINE"
BOOT_DISKS=(virtio_scsi megaraid_sas)
BOOT_MAPPER=alpha_pci_map_sg BOOT_MODE=arch_iommu
# alpha_pci_free_coherent() calls dma_unmap_single() on the buffer
# dma_free_coherent() has just told DMA-API debug is gone: an error for
# each coherent buffer freed, as megaraid_sas's probe frees one. Then
# virtio-scsi's EEXIST.
BOOT_DMA_KNOWN=2
BOOT_WARNINGS+=('megaraid_sas .*: device driver tries to free DMA memory it has not allocated')
