# make qemu-kasan's boot: make qemu-fault's, on the x86-64 kernel with
# KASAN and kmemleak, whose init asks for a leak scan at the end.
source "$BOOTS_DIR/qemu-fault/x86_64-fault.sh"
BOOT_KERNEL=x86_64-kasan
BOOT_NOTE="pc, failslab and fail_page_alloc under load, KASAN and kmemleak"
KMEMLEAK=1
