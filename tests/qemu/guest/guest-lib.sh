# Sourced by the busybox init scripts of the test initramfs (as /lib/guest.sh):
# KTAP results of one suite, and the block-device helpers they share.

n=0
failed=""

# guest_start: the file systems every init reads, and kernel messages kept
# out of the KTAP block from here on.
guest_start() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mount -t debugfs debugfs /sys/kernel/debug
	dmesg -n 1
}

# result OK|FAIL NAME [REASON]
result() {
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "    ok $n $2"
	else
		echo "    not ok $n $2${3:+ # $3}"
		failed=1
	fi
}
diag() { echo "    # $*"; }

# host_disk DRIVER: the sd disk of the SCSI host DRIVER registers (its
# proc_name: scsi_debug, ahci, megaraid_sas, virtio_scsi), waiting up to 5 s for the
# probe; nothing if there is none.
host_disk() {
	local try d h
	for try in 1 2 3 4 5 6 7 8 9 10; do
		for d in /sys/block/sd*; do
			[ -e "$d/device" ] || continue
			h=$(basename $(readlink $d/device) | cut -d: -f1)
			[ "$(cat /sys/class/scsi_host/host$h/proc_name 2>/dev/null)" = "$1" ] &&
				{ echo "${d##*/}"; return; }
		done
		sleep 0.5
	done
}

# ktap_begin SUITE PLAN / ktap_end SUITE: the suite's header and verdict.
ktap_begin() {
	plan=$2
	echo "KTAP version 1"
	echo "1..1"
	echo "    KTAP version 1"
	echo "    # Subtest: $1"
	echo "    1..$plan"
}
ktap_end() {
	[ "$n" = "$plan" ] || diag "ran $n of $plan planned tests"
	if [ -z "$failed" ] && [ "$n" = "$plan" ]; then
		echo "ok 1 $1"
	else
		echo "not ok 1 $1"
	fi
}

# Raise max_sectors_kb of a disk as high as its driver accepts: halve from
# max_hw_sectors_kb until a write is taken.
raise_max_sectors() {
	q=/sys/block/$1/queue
	try=$(cat $q/max_hw_sectors_kb 2>/dev/null || echo 0)
	while [ "$try" -ge 4 ] && ! echo "$try" > $q/max_sectors_kb 2>/dev/null; do
		try=$((try / 2))
	done
}
