# make qemu-fault's boot: big I/O from FAULT_PROCS processes while failslab
# fails the sg pools and fail_page_alloc single pages, on make qemu's
# kernel (tests/qemu/guest/init-fault.sh). Disks: scsi_debug (built in)
# and a virtio-scsi disk; the sg pools marked for failslab. Knobs:
# FAULT_PROCS (6), FAULT_ROUNDS (2), FAULT_FAILSLAB (10,30,100).
BOOT_KERNEL=x86_64
BOOT_NOTE="pc, failslab and fail_page_alloc under load"
BOOT_QEMU=(qemu-system-x86_64 -machine pc -m 1G)
BOOT_CMDLINE="console=ttyS0 $X86_GUEST_ARGS kunit.filter_glob=sg_chain*fault* slub_debug=A,sgpool-*"
BOOT_INIT=init-fault.sh
BOOT_FIO=1 BOOT_DEBS=(fio)
BOOT_SUITES=(sg_chain_fault sg_chain_real_faults fault_load)
BOOT_NO_SKIP=(sg_chain_real_faults)
KMEMLEAK=0

# The knobs, refused before a long build.
boot_check() {
	local procs=${FAULT_PROCS:-6} rounds=${FAULT_ROUNDS:-2} failslab=${FAULT_FAILSLAB:-10,30,100}
	[[ "$procs" =~ ^[0-9]+$ ]] && [ "$procs" -ge 3 ] && [ "$procs" -le 16 ] ||
		{ echo "[qemu-fault] FAULT_PROCS=$procs: 3 to 16 (two on virtio-scsi, the rest on scsi_debug, 24 MiB of guest memory each)" >&2; return 2; }
	[[ "$rounds" =~ ^[1-9][0-9]*$ ]] ||
		{ echo "[qemu-fault] FAULT_ROUNDS=$rounds: a positive count" >&2; return 2; }
	[[ "$failslab" =~ ^[0-9]+(,[0-9]+)*$ ]] &&
		! tr , '\n' <<< "$failslab" | awk '$1 > 100 || $1 < 1 { bad = 1 } END { exit !bad }' ||
		{ echo "[qemu-fault] FAULT_FAILSLAB=$failslab: comma-separated percentages, 1 to 100" >&2; return 2; }
}

boot_prepare() { # OUTDIR
	local procs=${FAULT_PROCS:-6} rounds=${FAULT_ROUNDS:-2} failslab=${FAULT_FAILSLAB:-10,30,100}
	# Each scsi_debug process owns 24 MiB of the disk (init-fault.sh's REGION).
	BOOT_CMDLINE+=" scsi_debug.dev_size_mb=$(( (procs - 2) * 24 + 4 ))"
	BOOT_CMDLINE+=" sgchain_procs=$procs sgchain_rounds=$rounds"
	BOOT_CMDLINE+=" sgchain_failslab=$failslab sgchain_kmemleak=$KMEMLEAK"
	# The sgio processes' 48 MiB, then fio's jobs (guest/fio/fault.fio).
	rm -f "$1/vscsi.img" && truncate -s 112M "$1/vscsi.img"
	BOOT_DEVICES+=(-drive "file=$1/vscsi.img,if=none,id=vs0,format=raw"
		       -device virtio-scsi-pci,id=vs -device scsi-hd,drive=vs0,bus=vs.0)
}

boot_report() { # OUTDIR: each phase's counts
	grep -E "^    # (phase|failslab|before|after)" "$1/console.log" | sed 's/^    # /[qemu-fault] /' || true
}
