# x86-64 again, with KASAN and kmemleak: the fault run's second kernel
# (make qemu-kasan), built beside the first.
source "$(dirname "${BASH_SOURCE[0]}")/x86_64.sh"
KFRAGMENTS+=(variant-kasan)
KBUILD_KNOB=KBUILD_KASAN
