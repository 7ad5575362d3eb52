# sparc64, seed 010's architecture: QEMU's sun4u, 8 KiB pages, the Sabre
# IOMMU (dma_4u_map_sg).
KERNEL_ARCH=sparc64
KERNEL_CROSS=sparc64-linux-gnu-
KFRAGMENTS=(common arch-sparc64)
KTARGET=vmlinux KIMAGE=vmlinux KCONFIG_ARCH=CONFIG_SPARC64
KDEBS=(gcc-sparc64-linux-gnu libc6-dev-sparc64-cross qemu-system-sparc)
GUEST_CC=(sparc64-linux-gnu-gcc -static)
