# make qemu's boot: the x86-64 kernel on pc, mapping directly. The KUnit
# suites, then big I/O through scsi_debug and virtio-blk from the busybox
# init (tests/qemu/guest/init-main.sh).
BOOT_KERNEL=x86_64
BOOT_NOTE="pc, dma-direct"
BOOT_QEMU=(qemu-system-x86_64 -machine pc -m 1G)
# slub_debug=A marks the sg pools for failslab (sg_chain_real_faults).
BOOT_CMDLINE="console=ttyS0 $X86_GUEST_ARGS kunit.filter_glob=sg_chain* slub_debug=A,sgpool-*"
BOOT_CMDLINE+=" scsi_debug.dev_size_mb=96"
BOOT_INIT=init-main.sh
BOOT_SUITES=(sg_chain sg_chain_fault sg_chain_real_faults sg_chain_pages sg_chain_dma sg_chain_io)
# The sg pools are marked for failslab here: their suite must run. And
# the guest must have checked its write in the backing file.
BOOT_NO_SKIP=(sg_chain_real_faults sg_chain_io/virtio_blk_backing_file_has_pattern)
BOOT_SKIP_NOTES=("sg_chain_dma=runs in make qemu-dma and make qemu-arch")

# The virtio-blk disk: /dev/vda, and again, read-only, /dev/vdb, through
# which the guest checks what its writes left in the file (no check after
# exit: a LAVA job has nowhere to run one). Two opens of one file: QEMU's
# image locks would refuse the second.
boot_prepare() { # OUTDIR
	local virtio_bytes=$((4 * 1024 * 1024)) virtio_seed=$(( (RANDOM << 16) | RANDOM ))
	rm -f "$1/virtio.img"
	truncate -s 64M "$1/virtio.img"
	# The pattern the guest writes to virtio-blk and checks in the file.
	BOOT_CMDLINE+=" sgchain_virtio_bytes=$virtio_bytes sgchain_virtio_seed=$virtio_seed"
	BOOT_DEVICES+=(-drive "file=$1/virtio.img,if=virtio,format=raw,file.locking=off"
		       -drive "file=$1/virtio.img,if=virtio,format=raw,readonly=on,file.locking=off")
}
