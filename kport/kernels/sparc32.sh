# sparc32, seed 009's architecture: QEMU's SPARCstation 5 (sun4m), the
# sun4m IOMMU (__sbus_iommu_map_sg). The kernel's ARCH is sparc, built by
# the sparc64 compiler. Debian has no libc for a V8 CPU (its 32-bit SPARC
# libc is V9 code): the guest's programs are built freestanding on
# tests/qemu/guest/tinylibc.
KERNEL_ARCH=sparc
KERNEL_CROSS=sparc64-linux-gnu-
KFRAGMENTS=(common arch-sparc32)
KTARGET=vmlinux KIMAGE=vmlinux KCONFIG_ARCH=CONFIG_SPARC32
KDEBS=(gcc-sparc64-linux-gnu qemu-system-sparc)
GUEST_CC=(sparc64-linux-gnu-gcc -m32 -mcpu=v8 -static -nostdlib -nostdinc
	  -ffreestanding -fno-stack-protector -fno-pic -no-pie
	  -isystem "$(sparc64-linux-gnu-gcc -print-file-name=include 2>/dev/null)"
	  -isystem "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/tests/qemu/guest/tinylibc")
# COMMAND_LINE_SIZE: its guests' settings travel in the initramfs.
KCMDLINE_MAX=256
