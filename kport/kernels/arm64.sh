# arm64, where every in-tree sg_split() caller lives: QEMU's virt with an
# SMMUv3 (dma-iommu).
KERNEL_ARCH=arm64
KERNEL_CROSS=aarch64-linux-gnu-
KFRAGMENTS=(common arch-arm64)
KTARGET=Image KIMAGE=arch/arm64/boot/Image KCONFIG_ARCH=CONFIG_ARM64
KDEBS=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm)
GUEST_CC=(aarch64-linux-gnu-gcc -static)
