# sparc64 on QEMU's sun4u: the Sabre's IOMMU (dma_4u_map_sg). The
# machine's own devices sit on the Sabre's first bus; the disks go on
# pciB. OpenBIOS cannot reboot: the init powers off.
dma_boot
BOOT_KERNEL=sparc64
BOOT_NOTE="sun4u, Sabre IOMMU"
BOOT_QEMU=(qemu-system-sparc64 -M sun4u -m 1G -vga none)
BOOT_CMDLINE="console=ttyS0 $BOOT_CMDLINE"
BOOT_END=poweroff
BOOT_DISK_BUS=pciB
BOOT_DISKS=(virtio_scsi megaraid_sas ahci)
BOOT_MAPPER=dma_4u_map_sg BOOT_MODE=arch_iommu
