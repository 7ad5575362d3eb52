# i386, seed 003's architecture: PAE with highmem, so that the pages the
# suites and the I/O map sit above 896 MiB, some above 4 GiB.
KERNEL_ARCH=i386
KERNEL_CROSS=
KFRAGMENTS=(common arch-i386)
KTARGET=bzImage KIMAGE=arch/x86/boot/bzImage KCONFIG_ARCH=CONFIG_X86_32
KDEBS=(gcc-i686-linux-gnu libc6-dev-i386-cross qemu-system-x86)
GUEST_CC=(i686-linux-gnu-gcc -static)
