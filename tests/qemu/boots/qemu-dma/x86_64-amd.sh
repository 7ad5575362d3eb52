# The x86-64 kernel on q35 behind QEMU's AMD IOMMU: dma-iommu maps every
# list, strictly.
source "$BOOTS_DIR/qemu-dma/x86_64-intel.sh"
BOOT_NOTE="q35, AMD IOMMU"
BOOT_QEMU=(qemu-system-x86_64 -M q35 -m 1G -device amd-iommu)
BOOT_CMDLINE=${BOOT_CMDLINE/ intel_iommu=on/}
# A command of 168 pieces of 1 KiB on AHCI times out here every time
# (30 s) once any KUnit suite ran before it (even sg_chain_pages, which
# maps nothing), and passes on libata's retry, data intact. Without the
# suites, and on pristine 6.1, it passes; behind the Intel IOMMU it always
# does. Cause not found yet: docs/dma.md.
BOOT_NO_PIECES+=(ahci)
