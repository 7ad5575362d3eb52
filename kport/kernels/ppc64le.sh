# 64-bit little-endian powerpc, seed 008's architecture: QEMU's pseries,
# the TCE tables (ppc_iommu_map_sg).
KERNEL_ARCH=powerpc
KERNEL_CROSS=powerpc64le-linux-gnu-
KFRAGMENTS=(common arch-ppc64le)
KTARGET=vmlinux KIMAGE=vmlinux KCONFIG_ARCH=CONFIG_PPC64
KDEBS=(gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross qemu-system-ppc)
GUEST_CC=(powerpc64le-linux-gnu-gcc -static)
