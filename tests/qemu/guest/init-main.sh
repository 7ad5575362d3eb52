#!/bin/busybox sh
# PID 1 of sgchain's test initramfs. The kernel has already run the KUnit
# suites; this script moves real big I/O through the chained scatterlists
# of the scsi_debug and virtio-blk drivers and reports it as KTAP suite
# "sg_chain_io". It ends the VM with reboot -f (QEMU runs -no-reboot).

/bin/busybox --install -s /bin
export PATH=/bin
. /lib/guest.sh
guest_start

SWEEP_PAGES="127 128 129 254 255 256 1024 2047 2048"
SEED=0x5eed
# The host chose these (kernel command line, passed to init as variables):
# the pattern written to virtio-blk, then read back from its backing file.
VIRTIO_BYTES=${sgchain_virtio_bytes:-0}
VIRTIO_SEED=${sgchain_virtio_seed:-0}
ktap_begin sg_chain_io $((7 + 2 * $(echo $SWEEP_PAGES | wc -w)))

# /sys/block/DEV/stat fields: 1 reads, 3 read sectors, 5 writes, 7 write sectors.
stat_of() { cat /sys/block/$1/stat; }
field() { echo "$1" | awk -v f="$2" '{ print $f }'; }

disk=$(host_disk scsi_debug)
if [ -n "$disk" ] && [ -b /dev/$disk ]; then
	result OK scsi_debug_disk_found
else
	result FAIL scsi_debug_disk_found "no scsi_debug disk in /sys/block"
	disk=sda
fi
q=/sys/block/$disk/queue

hw=$(cat $q/max_hw_sectors_kb 2>/dev/null || echo 0)
raise_max_sectors $disk
max_kb=$(cat $q/max_sectors_kb 2>/dev/null || echo 0)
max_segs=$(cat $q/max_segments 2>/dev/null || echo 0)
diag "$disk: max_hw_sectors_kb=$hw max_sectors_kb=$max_kb max_segments=$max_segs"
if [ "$max_kb" -ge 8192 ] && [ "$max_segs" -ge 2048 ]; then
	result OK queue_allows_8MiB_commands
else
	result FAIL queue_allows_8MiB_commands "max_sectors_kb=$max_kb max_segments=$max_segs"
fi

# 8 MiB in one dd call each way; /sys/block/X/stat counts commands.
dd if=/dev/urandom of=/tmp/pattern bs=1M count=8 2>/dev/null
s0=$(stat_of $disk)
dd if=/tmp/pattern of=/dev/$disk bs=8M count=1 oflag=direct 2>/dev/null
s1=$(stat_of $disk)
dd if=/dev/$disk of=/tmp/readback bs=8M count=1 iflag=direct 2>/dev/null
s2=$(stat_of $disk)
w=$(( $(field "$s1" 5) - $(field "$s0" 5) ))
ws=$(( $(field "$s1" 7) - $(field "$s0" 7) ))
r=$(( $(field "$s2" 1) - $(field "$s1" 1) ))
rs=$(( $(field "$s2" 3) - $(field "$s1" 3) ))
diag "dd 8 MiB: writes +$w sectors +$ws, reads +$r sectors +$rs"
[ "$w" = 1 ] && [ "$ws" = 16384 ] && result OK dd_write_8MiB_one_command ||
	result FAIL dd_write_8MiB_one_command "writes +$w, sectors +$ws; want 1 and 16384"
[ "$r" = 1 ] && [ "$rs" = 16384 ] && result OK dd_read_8MiB_one_command ||
	result FAIL dd_read_8MiB_one_command "reads +$r, sectors +$rs; want 1 and 16384"
want=$(md5sum < /tmp/pattern)
got=$(md5sum < /tmp/readback)
[ "$want" = "$got" ] && result OK dd_8MiB_data_intact ||
	result FAIL dd_8MiB_data_intact "md5 $got, want $want"
rm -f /tmp/pattern /tmp/readback

# Sizes across chain boundaries, from page-aligned and misaligned buffers.
# A buffer 512 bytes into a page touches one page more: one segment more,
# and a second command once that passes max_segments.
off=0
for pages in $SWEEP_PAGES; do
	for bufoff in 0 512; do
		bytes=$((pages * 4096))
		segs=$((pages + (bufoff > 0)))
		cmds=$(( (segs + max_segs - 1) / max_segs ))
		name=sweep_${pages}_pages_buffer_offset_$bufoff
		out=$(sgio rw /dev/$disk $off $bytes $bufoff $SEED 2>&1)
		want="write_cmds=$cmds write_sectors=$((pages * 8)) read_cmds=$cmds read_sectors=$((pages * 8)) data=ok"
		if [ "$out" = "$want" ]; then
			result OK $name
		else
			diag "$name: $out"
			result FAIL $name "want $want"
		fi
		off=$((off + bytes))
	done
done

# A pattern on the virtio-blk disk in one command (a chained list), then
# read from its backing file: QEMU opens the file a second time as the
# read-only /dev/vdb, and sgio verify reads that past the page cache a
# page a command (one segment: nothing chains), with the 4 MiB after the
# pattern, which must still be blank. Data the chained write put in the
# wrong place, twice, or not at all differs there, whatever the chained
# path would read back itself.
if [ "$VIRTIO_BYTES" -gt 0 ] && [ -b /dev/vda ] &&
   sgio write /dev/vda 0 $VIRTIO_BYTES $VIRTIO_SEED; then
	result OK virtio_blk_pattern_written
else
	result FAIL virtio_blk_pattern_written "no size from the host, no /dev/vda, or the write failed"
fi
if [ "$(cat /sys/block/vdb/ro 2>/dev/null)" != 1 ]; then
	result FAIL virtio_blk_backing_file_has_pattern "no read-only /dev/vdb: the second view of the backing file"
elif out=$(sgio verify /dev/vdb 0 $VIRTIO_BYTES $VIRTIO_SEED $VIRTIO_BYTES 2>&1); then
	result OK virtio_blk_backing_file_has_pattern
else
	diag "$out"
	result FAIL virtio_blk_backing_file_has_pattern "$(echo "$out" | head -n 1)"
fi

ktap_end sg_chain_io
echo "sgchain-init: done"
sync
reboot -f
