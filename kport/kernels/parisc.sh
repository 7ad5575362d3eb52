# parisc, which cannot chain (ARCH_NO_SG_CHAIN): make qemu-parisc's
# kernel, on QEMU's B160L. Its fragment stands alone (no common.config:
# no PCI, no DMA runs).
KERNEL_ARCH=parisc
KERNEL_CROSS=hppa-linux-gnu-
KFRAGMENTS=(arch-parisc)
KTARGET=vmlinux KIMAGE=vmlinux KCONFIG_ARCH=CONFIG_PARISC
# The cross compiler brings libc6-dev-hppa-cross for the static init.
KDEBS=(gcc-hppa-linux-gnu libc6-dev-hppa-cross qemu-system-misc)
GUEST_CC=(hppa-linux-gnu-gcc -static)
KBUILD_KNOB=KBUILD_PARISC
# COMMAND_LINE_SIZE.
KCMDLINE_MAX=1024
