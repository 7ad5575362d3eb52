# The x86-64 kernel on q35 with swiotlb=force: dma-direct bounces every
# list.
dma_boot
BOOT_KERNEL=x86_64
BOOT_NOTE="q35, swiotlb=force"
BOOT_QEMU=(qemu-system-x86_64 -M q35 -m 1G)
BOOT_CMDLINE="console=ttyS0 $X86_GUEST_ARGS swiotlb=force $BOOT_CMDLINE"
# lsi53c895a fetches its SCRIPTS by DMA from its own BAR and faults for
# ever behind QEMU's IOMMUs: here only.
BOOT_DISKS=(virtio_scsi megaraid_sas ahci sym53c8xx)
BOOT_MAPPER=dma_direct_map_sg BOOT_MODE=swiotlb
BOOT_FIO=1 BOOT_DEBS=(fio)
