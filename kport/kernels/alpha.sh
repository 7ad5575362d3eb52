# alpha, which cannot chain (ARCH_NO_SG_CHAIN): QEMU's clipper, the
# Tsunami's arena (alpha_pci_map_sg merging each list). The static glibc
# of libc6.1-dev-alpha-cross crashes before main: the guest's programs are
# dynamic, with their loader and libraries in the initramfs (GUEST_LIBS).
KERNEL_ARCH=alpha
KERNEL_CROSS=alpha-linux-gnu-
KFRAGMENTS=(common arch-alpha)
KTARGET=vmlinux KIMAGE=vmlinux KCONFIG_ARCH=CONFIG_ALPHA
KDEBS=(gcc-alpha-linux-gnu libc6.1-dev-alpha-cross qemu-system-misc)
GUEST_CC=(alpha-linux-gnu-gcc) GUEST_LIBS=/usr/alpha-linux-gnu/lib
# COMMAND_LINE_SIZE: its guests' settings travel in the initramfs.
KCMDLINE_MAX=256
