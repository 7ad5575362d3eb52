# The x86-64 kernel on q35 behind QEMU's AMD IOMMU: dma-iommu maps every
# list, strictly.
source "$BOOTS_DIR/qemu-dma/x86_64-intel.sh"
BOOT_NOTE="q35, AMD IOMMU"
BOOT_QEMU=(qemu-system-x86_64 -M q35 -m 1G -device amd-iommu)
BOOT_CMDLINE=${BOOT_CMDLINE/ intel_iommu=on/}
# QEMU 7.2's AHCI maps a command's PRDT in one piece and drops the command
# (no completion: libata times out after 30 s and its retry passes) when
# the map comes back short. Behind this IOMMU it does where the table
# crosses from one block of the port's DMA area to the next: dma-iommu
# allocates the 23 pages in blocks of 16, 4, 2 and 1, apart in memory, and
# the tables of tags 22, 28 and 31 cross a block's end after 136, 104 and
# 88 entries (docs/qemu-ahci-prdt.md; make qemu-repro shows it). The
# transfer of 168 pieces therefore starts at tag 0: its write takes tag 0
# and its read tag 1, whose tables lie in the first block. fio's 8 MiB
# jobs, 128 entries and more a command, can still land on tag 28 or 31:
# QEMU then prints "ahci: PRDT length for NCQ command (0x0) is smaller
# than the requested size (0x800000)", libata retries, and the data and
# fio's checks are intact.
BOOT_TAG0=(ahci)
