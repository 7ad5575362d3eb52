#!/bin/busybox sh
# PID 1 of make qemu-repro's AHCI boot (docs/qemu-ahci-prdt.md): QEMU 7.2's
# AHCI maps a command's PRDT with one dma_memory_map() and drops the command
# when the map comes back short, which behind an IOMMU it does wherever the
# table crosses from one block of guest pages to another that is not next
# to it in guest-physical memory. Each case here puts one read of ENTRIES
# pieces of 1 KiB (one PRDT entry each) on the NCQ tag TAG, and the case
# passes when the read times out exactly when the formula below says its
# PRDT crosses such a boundary. Reports KTAP suite ahci_prdt.

/bin/busybox --install -s /bin
export PATH=/bin
. /lib/guest.sh
guest_start

# TAG:ENTRIES. Each failing case is next to the passing case one entry
# shorter, on the same table; the last two are tables inside one block
# (and so are the tables of the writes before them, TAG - 1).
# Three timeouts at most: a fourth within ten minutes would make libata
# turn NCQ off (ata_eh_speed_down_verdict()).
CASES="28:104 28:105 22:136 22:137 21:168 26:168"
TIMEOUT_S=3

# The port's DMA area as libata's ahci.h lays it out: 32 command headers
# of 32 bytes, the received-FIS area (256 bytes), then 32 command tables of
# a 0x80-byte header and 168 PRDT entries of 16 bytes (2816 bytes each): 23
# pages. dma-iommu allocates them in blocks of the largest orders the
# domain's page sizes allow (__iommu_dma_alloc_pages()); the AMD IOMMU's
# allow every order, so 16, 4, 2 and 1 pages, and the blocks meet at 64,
# 80 and 88 KiB. The most entries the PRDT of TAG holds inside one block:
fits() {
	awk -v n="$1" 'BEGIN {
		prdt = 32 * 32 + 256 + 2816 * n + 128
		split("65536 81920 90112", edge)
		for (i = 1; i <= 3; i++)
			if (prdt < edge[i]) { print int((edge[i] - prdt) / 16); exit }
		print 168
	}'
}

# The driver tag the next request of the disk gets at dispatch: its
# allocation hint (one CPU). mq-deadline stays: a request it requeues gets
# a driver tag anew, so libata's retry of a timed-out read takes the next
# tag and passes, as in make qemu-dma. Without a scheduler the request
# keeps its tag, the retries fail the same way, and once libata has
# turned NCQ off, QEMU 7.2 aborts on the same short map (ide_dma_cb()'s
# assertion on prepare_buf()).
next_tag() {
	sed -n 's/^alloc_hint={\([0-9]*\).*/\1/p' \
		/sys/kernel/debug/block/$disk/hctx0/tags | head -n 1
}

# Move the hint to TAG with reads of one sector; fails after 64.
steer() {
	local i=0
	while [ "$(next_tag)" != "$1" ]; do
		[ $i -lt 64 ] || return 1
		dd if=/dev/$disk of=/dev/null bs=512 count=1 iflag=direct 2>/dev/null
		i=$((i + 1))
	done
}

ncases=$(echo $CASES | wc -w)
ktap_begin ahci_prdt $((1 + 2 * ncases))

disk=$(host_disk ahci)
if [ -n "$disk" ]; then
	echo $TIMEOUT_S > /sys/block/$disk/device/timeout
	result OK ahci_disk_found
	diag "$disk: max_segments=$(cat /sys/block/$disk/queue/max_segments)," \
	     "scheduler $(cat /sys/block/$disk/queue/scheduler), timeout ${TIMEOUT_S}s"
else
	result FAIL ahci_disk_found "no disk behind libata"
fi

off=0
for c in $CASES; do
	tag=${c%:*} k=${c#*:}
	name=tag_${tag}_${k}_entries
	fit=$(fits $tag)
	if [ "$k" -gt "$fit" ]; then want=timeout; else want=ok; fi
	dmesg -c > /dev/null
	# The write takes the tag before TAG (a table inside one block), the
	# read TAG.
	before=$(( (tag + 31) % 32 ))
	if [ -z "$disk" ] || ! steer $before; then
		result FAIL ${name}_data "no disk, or the tag hint never reached $before"
		result FAIL ${name}_times_out_iff_the_prdt_crosses_a_block
		continue
	fi
	start=$(cut -d. -f1 /proc/uptime)
	out=$(sgio rw /dev/$disk $off $((k * 1024)) 0 $((tag * 1000 + k)) 0 scatter,frag=1024 2>&1)
	rc=$?
	secs=$(( $(cut -d. -f1 /proc/uptime) - start ))
	off=$((off + k * 1024))
	[ $rc = 0 ] && result OK ${name}_data ||
		result FAIL ${name}_data "sgio: $out"
	# libata's report of a timed-out command names its tag.
	timed=$(dmesg | grep -A 2 'failed command' | sed -n 's/.* tag \([0-9]*\) ncq dma .*/\1/p' | tr '\n' ' ')
	# The read on TAG times out exactly when the formula says; any other
	# command that timed out (mq-deadline may give the write a tag out of
	# turn) must be one the formula says too.
	got=ok unexplained=""
	for t in $timed; do
		[ "$t" = "$tag" ] && got=timeout
		[ "$k" -gt "$(fits $t)" ] || unexplained="$unexplained $t"
	done
	diag "$name: the PRDT ends $((k * 16)) bytes in, $((fit * 16)) fit in its block:" \
	     "want $want, got $got (tags that timed out: ${timed:-none}; ${secs}s)"
	if [ "$want" = "$got" ] && [ -z "$unexplained" ]; then
		result OK ${name}_times_out_iff_the_prdt_crosses_a_block
	else
		result FAIL ${name}_times_out_iff_the_prdt_crosses_a_block \
			"${unexplained:+tags$unexplained timed out with their PRDT inside one block}"
	fi
done

ktap_end ahci_prdt
echo "sgchain-init: done"
sync
reboot -f
