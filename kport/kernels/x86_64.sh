# x86-64: make qemu's kernel (pc), and that of the DMA runs (q35 behind
# the Intel and AMD IOMMUs and forced swiotlb) and the fault run.
# ARCH=x86, as a plain make on an x86-64 host takes it: tinyconfig is then
# 32-bit until the fragment's 64BIT=y, and options that only x86-64 has
# (X86_5LEVEL, X86_VSYSCALL_EMULATION) get their defaults, where
# ARCH=x86_64's tinyconfig would turn them off.
KERNEL_ARCH=x86
KERNEL_CROSS=
KFRAGMENTS=(common arch-x86_64)
KTARGET=bzImage KIMAGE=arch/x86/boot/bzImage KCONFIG_ARCH=CONFIG_X86_64
GUEST_CC=(gcc -static)
# The make knob that names this kernel's build directory.
KBUILD_KNOB=KBUILD
