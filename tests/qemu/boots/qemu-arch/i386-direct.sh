# i386 with PAE on q35, 3 GiB: all but 896 MiB is highmem, 1 GiB of it
# above 4 GiB (q35 puts RAM past 2 GiB there). Without pse36 qemu32
# cannot reach RAM above 4 GiB. dma-direct hands the pages' own addresses
# to the device: highmem, above 4 GiB for the 64-bit DMA of AHCI and
# megasas. Lists as long as AHCI's 168 entries.
dma_boot
BOOT_KERNEL=i386
BOOT_NOTE="PAE highmem, dma-direct"
BOOT_QEMU=(qemu-system-i386 -M q35 -cpu qemu32,pse36=on -m 3G)
BOOT_CMDLINE="console=ttyS0 $X86_GUEST_ARGS $BOOT_CMDLINE"
BOOT_DISKS=(virtio_scsi megaraid_sas ahci sym53c8xx)
BOOT_MAPPER=dma_direct_map_sg BOOT_MODE=direct
# sg_chain_pages' block must be highmem here.
BOOT_NO_SKIP=(sg_chain_pages/sg_chain_pages_test_highmem)
