# i386-direct's machine with swiotlb=force: every list bounced, highmem
# pages through kmap_local. A bounced mapping holds at most 256 KiB, so
# SCSI caps each command at 64 pages: one link.
source "$BOOTS_DIR/qemu-arch/i386-direct.sh"
BOOT_NOTE="PAE highmem, swiotlb=force"
BOOT_CMDLINE="console=ttyS0 $X86_GUEST_ARGS swiotlb=force ${BOOT_CMDLINE#"console=ttyS0 $X86_GUEST_ARGS "}"
BOOT_MODE=swiotlb
