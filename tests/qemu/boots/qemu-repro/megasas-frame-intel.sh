# make qemu-repro's megasas boot, a reproducer of a QEMU 7.2 bug
# (docs/qemu-megasas-frame.md): behind its Intel IOMMU, megasas refuses
# a command whose 1 KiB MFI frame ends a page that no mapped IOVA page
# follows. One megasas disk, no KUnit suite; several readers at once.
BOOT_KERNEL=x86_64
BOOT_NOTE="q35, Intel IOMMU, megasas frame at a page's end"
BOOT_QEMU=(qemu-system-x86_64 -M q35 -m 1G -device intel-iommu,intremap=off,caching-mode=on)
BOOT_CMDLINE="console=ttyS0 $X86_GUEST_ARGS iommu.strict=1 intel_iommu=on kunit.enable=0"
BOOT_INIT=init-megasas-frame.sh
BOOT_SUITES=(megasas_frame)
BOOT_DISKS=(megaraid_sas)
