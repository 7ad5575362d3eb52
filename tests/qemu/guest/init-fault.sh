#!/bin/busybox sh
# PID 1 of a fault run (make qemu-fault, make qemu-kasan): big I/O from
# several processes at once while the kernel's fault injection fails the
# sg pools' allocations (failslab, only the caches slub_debug=A,sgpool-*
# marks) and, now and then, page allocations (fail_page_alloc). Seed 011's
# claim under load: later tables never sleep, a failed list unwinds, the
# command is retried, nothing is lost. Besides the sgio processes, fio
# runs the jobs of /fio/fault.fio on the virtio-scsi disk in every phase
# (psync, libaio, io_uring; verified). Reports KTAP suite fault_load.
# The host passes on the kernel command line:
#   sgchain_procs        processes: scsi_debug gets all but two, virtio-scsi two
#   sgchain_rounds       rounds of each process's transfers per phase
#   sgchain_failslab     failslab probabilities, one phase each (comma-separated)
#   sgchain_kmemleak     1: scan for leaks at the end (a kmemleak kernel)

/bin/busybox --install -s /bin
export PATH=/bin
. /lib/guest.sh
guest_start

PROCS=${sgchain_procs:-6}
ROUNDS=${sgchain_rounds:-2}
PHASES=$(echo "${sgchain_failslab:-10,30,100}" | tr , ' ')
KMEMLEAK=${sgchain_kmemleak:-0}
# Each process owns 24 MiB of its disk: 8 MiB aligned, 8 MiB less a page
# from a misaligned buffer, 255 misaligned pages, 129 pages.
REGION=$((24 << 20))
TRANSFERS="0:2048:0 8388608:2047:512 16777216:255:512 17825792:129:0"
WATCHDOG=240
D=/sys/kernel/debug
nphases=$(echo $PHASES | wc -w)
FIO_JOBS=/fio/fault.fio
# fio's job names: the job file's sections but [global].
fio_jobs=$(sed -n 's/^\[\(.*\)\]$/\1/p' $FIO_JOBS 2>/dev/null | grep -vx global)
plan=$((5 + 5 * nphases + 5 + 2 * KMEMLEAK))
ktap_begin fault_load $plan

sdebug=$(host_disk scsi_debug)
vscsi=$(host_disk virtio_scsi)
[ -n "$sdebug" ] && [ -n "$vscsi" ] && result OK disks_found ||
	result FAIL disks_found "scsi_debug: '$sdebug', virtio-scsi: '$vscsi'"
raise_max_sectors $sdebug
raise_max_sectors $vscsi
kb_sdebug=$(cat /sys/block/$sdebug/queue/max_sectors_kb 2>/dev/null || echo 0)
kb_vscsi=$(cat /sys/block/$vscsi/queue/max_sectors_kb 2>/dev/null || echo 0)
diag "scsi_debug $sdebug: max_sectors_kb $kb_sdebug, virtio-scsi $vscsi: $kb_vscsi"
# 8 MiB in one command: lists of 2048 entries, chained.
[ "$kb_sdebug" -ge 8192 ] && [ "$kb_vscsi" -ge 8192 ] &&
	result OK disks_take_8_MiB_commands ||
	result FAIL disks_take_8_MiB_commands "max_sectors_kb $kb_sdebug and $kb_vscsi"

# Process p's disk and region.
disk_of() { [ "$1" -lt $((PROCS - 2)) ] && echo $sdebug || echo $vscsi; }
base_of() { [ "$1" -lt $((PROCS - 2)) ] && echo $(($1 * REGION)) || echo $((($1 - PROCS + 2) * REGION)); }
seed_of() { echo $(( ($2 << 8) + $1 + 0x100 )); }	# process, phase

# Objects of the sg pools' caches: their reserves included, nothing else
# when the load is over. Shrinking first empties KASAN's quarantine of
# them, where freed objects wait a while still counted as in use.
pool_objects() {
	for c in 8 16 32 64 128; do
		echo 1 > /sys/kernel/slab/sgpool-$c/shrink 2>/dev/null
		printf 'sgpool-%s=%s ' $c "$(cut -d' ' -f1 /sys/kernel/slab/sgpool-$c/objects)"
	done
}
objects0=$(pool_objects)
diag "before the load: $objects0"
# Idle, each pool's objects are its reserve: SG_MEMPOOL_SIZE (2) elements.
[ "$objects0" = "sgpool-8=2 sgpool-16=2 sgpool-32=2 sgpool-64=2 sgpool-128=2 " ] &&
	result OK sgpool_objects_are_the_reserves_before_the_load ||
	result FAIL sgpool_objects_are_the_reserves_before_the_load "$objects0"

# Marked caches only, one failure per call that reaches failslab, a number
# of them per phase; page allocations fail at 2 % for a while (at 1 %
# runs saw 5 to 17 in all, so about one run in a thousand would see none).
[ -e $D/failslab/cache-filter ] && result OK fault_injection_present ||
	result FAIL fault_injection_present "no failslab in debugfs"
echo Y > $D/failslab/cache-filter
echo 0 > $D/failslab/verbose
echo 1 > $D/failslab/interval
echo 0 > $D/fail_page_alloc/verbose
echo 1 > $D/fail_page_alloc/interval
# Single pages too: the load's atomic allocations are mostly of order 0.
echo 0 > $D/fail_page_alloc/min-order
echo 30 > /proc/sys/kernel/hung_task_timeout_secs
marked=$(cat /sys/kernel/slab/sgpool-128/failslab 2>/dev/null)
[ "$marked" = 1 ] && result OK sgpool_caches_marked_for_failslab ||
	result FAIL sgpool_caches_marked_for_failslab "sgpool-128/failslab is '$marked': boot with slub_debug=A,sgpool-*"

# kmemleak's report without the objects of KUnit's own result logs, which
# the framework keeps for debugfs and kmemleak does not see referenced.
# A scan that fails (kmemleak off, or disabled itself) is a leak check
# that cannot fail: it counts as a failure, and so does an unreadable report.
kmemleak_report() {
	cat $D/kmemleak > /tmp/kmemleak || { echo "unreferenced object: the report cannot be read"; return; }
	awk '/^unreferenced object/ { if (b != "" && b !~ /kunit_debugfs_create_suite/) printf "%s", b; b = "" }
	     { b = b $0 "\n" }
	     END { if (b != "" && b !~ /kunit_debugfs_create_suite/) printf "%s", b }' /tmp/kmemleak
}
kmemleak_scan() {
	echo scan > $D/kmemleak || echo "unreferenced object: the scan failed" > /tmp/kmemleak-scan
}
if [ "$KMEMLEAK" = 1 ]; then
	# kmemleak reports objects 5 s old: the KUnit suites' ones are by now.
	sleep 6
	rm -f /tmp/kmemleak-scan
	kmemleak_scan
	leaks=$( { cat /tmp/kmemleak-scan 2>/dev/null; kmemleak_report; } | grep -c "unreferenced object")
	[ "$leaks" = 0 ] && result OK kmemleak_nothing_left_by_boot_and_kunit ||
		{ { cat /tmp/kmemleak-scan 2>/dev/null; kmemleak_report; } | head -n 30 |
		  while IFS= read -r l; do diag "kmemleak: $l"; done
		  result FAIL kmemleak_nothing_left_by_boot_and_kunit "$leaks unreferenced objects"; }
	# Only this run's from here on.
	echo clear > $D/kmemleak
fi
# The kernel log from here on is the load's: a full ring buffer would
# shift line numbers, so it is emptied rather than counted.
dmesg -c > /dev/null
phase=0
injected_total=0
pages_total=0
for prob in $PHASES; do
	phase=$((phase + 1))
	# Bounded: at 100 % unbounded faults would never let a list through.
	times=400
	echo $times > $D/failslab/times
	echo $prob > $D/failslab/probability
	echo 50 > $D/fail_page_alloc/times
	echo 2 > $D/fail_page_alloc/probability

	t0=$(date +%s)
	pids=""
	p=0
	while [ $p -lt $PROCS ]; do
		(
			dev=/dev/$(disk_of $p) base=$(base_of $p) seed=$(seed_of $p $phase)
			r=0
			while [ $r -lt $ROUNDS ]; do
				for t in $TRANSFERS; do
					off=${t%%:*} rest=${t#*:}
					pages=${rest%%:*} bufoff=${rest#*:}
					out=$(sgio rw $dev $((base + off)) $((pages * 4096)) $bufoff $seed 2>&1)
					case "$out" in
					*data=ok*) ;;
					*) echo "process $p round $r at $off: $out"; exit 1 ;;
					esac
				done
				r=$((r + 1))
			done
		) > /tmp/proc$p.log 2>&1 &
		pids="$pids $!"
		p=$((p + 1))
	done
	FIO_DEV=/dev/$vscsi fio --output=/tmp/fio$phase.out $FIO_JOBS > /dev/null 2>&1 &
	fio_pid=$!
	pids="$pids $fio_pid"
	# Wait for every process, within the watchdog.
	stuck=""
	while :; do
		running=""
		for pid in $pids; do [ -d /proc/$pid ] && running="$running $pid"; done
		[ -z "$running" ] && break
		if [ $(( $(date +%s) - t0 )) -ge $WATCHDOG ]; then
			stuck=$running
			break
		fi
		sleep 1
	done
	secs=$(( $(date +%s) - t0 ))
	echo 0 > $D/failslab/probability
	echo 0 > $D/fail_page_alloc/probability
	left=$(cat $D/failslab/times)
	injected=$((times - left))
	pages=$((50 - $(cat $D/fail_page_alloc/times)))
	injected_total=$((injected_total + injected))
	pages_total=$((pages_total + pages))
	diag "phase $phase: failslab $prob% on the sg pools: $injected faults injected, page allocations: $pages; $PROCS processes x $ROUNDS rounds in ${secs} s"
	[ -z "$stuck" ] && result OK phase_${phase}_failslab_${prob}_processes_finished ||
		result FAIL phase_${phase}_failslab_${prob}_processes_finished "still running after ${WATCHDOG} s: $stuck"
	bad=""
	fio_rc=0
	for pid in $pids; do
		if [ "$pid" = "$fio_pid" ]; then
			wait $pid || fio_rc=$?
		else
			wait $pid || bad="$bad $pid"
		fi
	done
	# fio's verdict: its exit status, and "err= 0" from every job (a block
	# that read back wrong is an error: verify_fatal).
	fio_bad=""
	[ -n "$fio_jobs" ] || fio_bad=" no jobs in $FIO_JOBS"
	for j in $fio_jobs; do
		line=$(grep "^$j: (groupid=" /tmp/fio$phase.out 2>/dev/null)
		diag "fio: ${line:-$j: no report}"
		case "$line" in
		*"err= 0:"*) ;;
		*) fio_bad="$fio_bad $j" ;;
		esac
	done
	# What the jobs moved (writes, then the verifying reads), and errors.
	grep -E "^  (write|read):|fio: |verify: bad" /tmp/fio$phase.out 2>/dev/null | head -n 12 |
		while IFS= read -r l; do diag "fio: $l"; done
	[ "$fio_rc" = 0 ] && [ -z "$fio_bad" ] &&
		result OK phase_${phase}_failslab_${prob}_fio_jobs_verified ||
		result FAIL phase_${phase}_failslab_${prob}_fio_jobs_verified "exit $fio_rc, failed:$fio_bad"
	p=0
	while [ $p -lt $PROCS ]; do
		[ -s /tmp/proc$p.log ] && diag "$(head -n 2 /tmp/proc$p.log)"
		p=$((p + 1))
	done
	[ -z "$bad" ] && result OK phase_${phase}_failslab_${prob}_every_transfer_verified ||
		result FAIL phase_${phase}_failslab_${prob}_every_transfer_verified "processes failed:$bad"
	[ "$injected" -gt 0 ] && result OK phase_${phase}_failslab_${prob}_faults_injected ||
		result FAIL phase_${phase}_failslab_${prob}_faults_injected "failslab injected none"
	# Every region as the last phase left it, read whole.
	sync
	echo 3 > /proc/sys/vm/drop_caches
	bad=""
	p=0
	while [ $p -lt $PROCS ]; do
		dev=/dev/$(disk_of $p) base=$(base_of $p) seed=$(seed_of $p $phase)
		for t in $TRANSFERS; do
			off=${t%%:*} rest=${t#*:}
			pages=${rest%%:*}
			sgio check $dev $((base + off)) $((pages * 4096)) $seed > /dev/null 2>&1 ||
				bad="$bad p$p@$off"
		done
		p=$((p + 1))
	done
	[ -z "$bad" ] && result OK phase_${phase}_failslab_${prob}_regions_intact ||
		result FAIL phase_${phase}_failslab_${prob}_regions_intact "differ:$bad"
done

[ "$injected_total" -gt 0 ] && result OK faults_injected_in_all "$injected_total" ||
	result FAIL faults_injected_in_all "none"
diag "failslab injected $injected_total faults in all"
[ "$pages_total" -gt 0 ] && result OK page_allocation_faults_injected "$pages_total" ||
	result FAIL page_allocation_faults_injected "fail_page_alloc injected none"

objects=$(pool_objects)
diag "after the load: $objects"
[ "$objects" = "$objects0" ] && result OK sgpool_objects_back_to_before ||
	result FAIL sgpool_objects_back_to_before "before: $objects0 after: $objects"

# Nothing new in the kernel log: no hung task, no warning, no leak report.
# Allowed: this script's drop_caches, and the RNG coming up meanwhile.
new=$(dmesg |
	grep -v -E 'init \(1\): drop_caches: 3$|random: crng init done$')
[ -z "$new" ] && result OK kernel_log_quiet_during_the_load ||
	{ echo "$new" | head -n 20 | while IFS= read -r l; do diag "dmesg: $l"; done
	  result FAIL kernel_log_quiet_during_the_load "$(echo "$new" | wc -l) new lines"; }
echo "$new" | grep -q "blocked for more than" &&
	result FAIL no_hung_task "a task blocked past hung_task_timeout_secs" ||
	result OK no_hung_task

if [ "$KMEMLEAK" = 1 ]; then
	# Twice, as kmemleak advises: an object must stay unreferenced.
	sleep 6
	rm -f /tmp/kmemleak-scan
	kmemleak_scan
	kmemleak_scan
	leaks=$( { cat /tmp/kmemleak-scan 2>/dev/null; kmemleak_report; } | grep -c "unreferenced object")
	[ "$leaks" = 0 ] && result OK kmemleak_no_unreferenced_objects_after_the_load ||
		{ { cat /tmp/kmemleak-scan 2>/dev/null; kmemleak_report; } | head -n 30 |
		  while IFS= read -r l; do diag "kmemleak: $l"; done
		  result FAIL kmemleak_no_unreferenced_objects_after_the_load "$leaks unreferenced objects"; }
fi

ktap_end fault_load
echo "sgchain-init: done"
sync
reboot -f
