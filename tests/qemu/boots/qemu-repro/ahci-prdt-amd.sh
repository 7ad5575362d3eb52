# make qemu-repro's AHCI boot, a reproducer of a QEMU 7.2 bug
# (docs/qemu-ahci-prdt.md): behind its AMD IOMMU, an AHCI command whose
# PRDT crosses from one block of the port's DMA area to another is
# dropped, and times out. The x86-64 kernel, no KUnit suite, one AHCI
# disk; tests/qemu/guest/init-ahci-prdt.sh puts reads of chosen lengths on
# chosen NCQ tags and checks which time out.
BOOT_KERNEL=x86_64
BOOT_NOTE="q35, AMD IOMMU, AHCI PRDT across a block"
BOOT_QEMU=(qemu-system-x86_64 -M q35 -m 1G -device amd-iommu)
BOOT_CMDLINE="console=ttyS0 $X86_GUEST_ARGS iommu.strict=1 kunit.enable=0"
BOOT_INIT=init-ahci-prdt.sh
BOOT_SUITES=(ahci_prdt)
BOOT_DISKS=(ahci)
