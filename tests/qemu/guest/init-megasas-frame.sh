#!/bin/busybox sh
# PID 1 of make qemu-repro's megasas boot (docs/qemu-megasas-frame.md):
# QEMU 7.2's megasas maps 2 KiB at the address of every MFI frame the
# driver posts and refuses the command (SCSI BUSY) when it cannot, while
# Linux's megaraid_sas frames are 1 KiB, four to a page of its DMA pool.
# Behind an IOMMU the frame at the end of a page is followed by whatever
# IOVA page comes next, and an unmapped one makes QEMU refuse every
# command posted in that frame. Several reads at once put commands in
# that frame; the SCSI layer counts each refused attempt as a command that
# completed with an error (ioerr_cnt). Linux 6.1's dma_pool never hands
# out the block that ends its page (pool_initialise_page()), so there
# the case skips. Reports KTAP suite megasas_frame.

/bin/busybox --install -s /bin
export PATH=/bin
. /lib/guest.sh
guest_start

READERS=8 ROUNDS=8

ktap_begin megasas_frame 2
disk=$(host_disk megaraid_sas)
[ -n "$disk" ] && result OK megasas_disk_found || result FAIL megasas_disk_found

dev=/sys/block/$disk/device
err0=$(($(cat $dev/ioerr_cnt))) done0=$(($(cat $dev/iodone_cnt)))
i=0
while [ $i -lt $READERS ]; do
	dd if=/dev/$disk of=/dev/null bs=131072 count=$ROUNDS skip=$((i * ROUNDS)) iflag=direct 2>/dev/null &
	i=$((i + 1))
done
wait
errs=$(( $(cat $dev/ioerr_cnt) - err0 )) dones=$(( $(cat $dev/iodone_cnt) - done0 ))
diag "$READERS readers of $ROUNDS reads of 128 KiB: $dones commands completed, $errs of them with an error"
case "$(uname -r)" in
6.1.*)	result OK "megasas_refused_commands_while_readers_overlap # SKIP Linux 6.1's dma_pool puts no frame at a page's end" ;;
*)	[ "$errs" -gt 0 ] && result OK megasas_refused_commands_while_readers_overlap ||
		result FAIL megasas_refused_commands_while_readers_overlap "no command was refused" ;;
esac
ktap_end megasas_frame
echo "sgchain-init: done"
sync
reboot -f
