# make qemu-parisc's boot: the series on parisc, which cannot chain, under
# QEMU's B160L: the KUnit suites in their no-chain form, then 1 to 2048
# pages through scsi_debug from a static C init (there is no busybox for
# parisc).
BOOT_KERNEL=parisc
BOOT_NOTE="B160L, no chaining"
BOOT_QEMU=(qemu-system-hppa -M hppa -m 512)
# SG_MAX_SEGMENTS without chaining is SG_CHUNK_SIZE: one table a command.
BOOT_CMDLINE="console=ttyS0 kunit.filter_glob=sg_chain* scsi_debug.dev_size_mb=32"
BOOT_CMDLINE+=" sgchain_max_segments=128"
BOOT_INIT=init-main.c
BOOT_SUITES=(sg_chain sg_chain_fault sg_chain_pages sg_chain_io)
# QEMU's B160L firmware reports a cache geometry that trips this check
# while SLUB sets up its first caches, at every boot (seen on a pristine
# 6.1 too): excused once, exactly there.
BOOT_WARNINGS=('at ___slab_alloc\+.*kmem_cache_init.*start_kernel')
