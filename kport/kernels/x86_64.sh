# x86-64: make qemu's kernel (pc), and that of the DMA runs (q35 behind
# the Intel and AMD IOMMUs and forced swiotlb) and the fault run.
KERNEL_ARCH=x86_64
KERNEL_CROSS=
KFRAGMENTS=(common arch-x86_64)
KTARGET=bzImage KIMAGE=arch/x86/boot/bzImage KCONFIG_ARCH=CONFIG_X86_64
# fio: part of the DMA and fault runs' load (tests/qemu/guest/fio); the
# guests run the host's own binary.
KDEBS=(fio)
GUEST_CC=(gcc -static)
# The make knob that names this kernel's build directory.
KBUILD_KNOB=KBUILD
