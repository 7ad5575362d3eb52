#!/usr/bin/env python3
"""The KTAP parser on saved console logs: what it must count and flag.

golden/pass.console        a real passing run (kernel lines interleaved)
golden/pass-dma-skipped.console  a real passing make qemu run of the series
                           with sg_chain_dma, whose every case skips there
golden/fail-sg-next.console a real run with sg_next() not following links
golden/hang.console        the passing run cut short, as the watchdog leaves it
golden/panic.console       the passing run ending in a panic when init starts
golden/parisc-pass.console a real passing no-chain run: skipped cases, and the
                           B160L's boot-time SLUB warning, excused by name
golden/parisc-skips-counted-as-ok.console  a real run where 6.1 printed
                           skipped parameters as "ok" (KUnit's counts disagree)
golden/parisc-extra-warning.console  parisc-pass with a second warning
golden/dma-intel-pass.console  a real passing DMA run behind the Intel IOMMU
golden/dma-swiotlb-planted-sg-plus-one.console  a real swiotlb run of a kernel
                           with dma_direct_map_sg() walking by sg + 1 (a scratch
                           change, never in the series): a BUG on the first link
(hang, panic and parisc-extra-warning are edited copies; the others are as
captured)
"""
import contextlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
EXPECT = ["--expect", "sg_chain", "--expect", "sg_chain_fault",
          "--expect", "sg_chain_io", "--require-line", "sgchain-init: done"]

# The one warning make qemu-parisc excuses
# (tests/qemu/boots/qemu-parisc/parisc-b160l.sh).
PARISC = ["--allow-warning", r"at ___slab_alloc\+.*kmem_cache_init.*start_kernel"]

# The allowance make qemu-dma and make qemu-arch pass (tests/qemu/boots.sh: dma_boot).
DMA = ["--expect", "sg_chain_dma", "--expect", "sg_chain_dma_io",
       "--require-line", "sgchain-init: done",
       "--allow-warning", "cacheline tracking EEXIST.*virtscsi_kick_event.*virtscsi_probe"]

# (log, extra arguments, exit code, closing line, texts the report must hold)
CASES = [
    ("pass.console", EXPECT, 0, "84 passed, 0 failed",
     ("  ok    sg_chain  ", "  ok    sg_chain_fault  ", "  ok    sg_chain_io  ")),
    ("fail-sg-next.console", EXPECT, 1, "0 passed, 12 failed",
     ("sg_chain (unfinished)/sg_chain_test_chained_every_size: ",
      "list of 129: table 0 entry 127 is not a clean link",
      "RIP: 0010:sg_chain_expect_shape", "suite sg_chain_io never reported")),
    ("hang.console", EXPECT, 1, None,
     ("watchdog fired", "suite sg_chain_io never reported",
      "never printed: 'sgchain-init: done'")),
    ("panic.console", EXPECT, 1, None, ("Kernel panic - not syncing",)),
    ("parisc-pass.console", EXPECT + PARISC, 0, "55 passed, 0 failed, 1 skipped",
     ("  ok    sg_chain_io  ",)),
    ("parisc-pass.console", EXPECT, 1, "55 passed, 1 failed, 1 skipped",
     ("WARNING: CPU: 0 PID: 0 at ___slab_alloc",)),
    ("parisc-skips-counted-as-ok.console", EXPECT + PARISC, 1, "78 passed, 3 failed",
     ("sg_chain_test_kmalloc_boundary: KUnit counted pass:14 fail:0 skip:7, "
      "its result lines pass:21",)),
    ("parisc-extra-warning.console", EXPECT + PARISC, 1, "55 passed, 1 failed, 1 skipped",
     ("WARNING: CPU: 0 PID: 1 at sg_alloc_tables",)),
    # A suite that all skipped reads as skipped, with the kernel's reason
    # and, given, where it runs; never as "ok ... 0 passed".
    ("pass-dma-skipped.console", EXPECT + ["--skip-note", "sg_chain_dma=runs in make qemu-dma"],
     0, "107 passed, 0 failed, 7 skipped",
     ("  skip  sg_chain_dma                                7 skipped: runs in make qemu-dma "
      "(no PCI device behind a DMA IOMMU domain or forced swiotlb)",
      "  ok    sg_chain_pages                             12 passed   0 failed\n")),
    ("pass-dma-skipped.console", EXPECT, 0, "107 passed, 0 failed, 7 skipped",
     ("  skip  sg_chain_dma                                7 skipped: "
      "no PCI device behind a DMA IOMMU domain or forced swiotlb\n",)),
    ("pass-dma-skipped.console", EXPECT + ["--no-skip", "sg_chain_dma"],
     1, "107 passed, 7 failed",
     ("  FAIL  sg_chain_dma                                0 passed   7 failed",)),
    ("dma-intel-pass.console", DMA + ["--no-skip", "sg_chain_dma/sg_chain_dma_test_iommu"],
     0, "39 passed, 0 failed, 6 skipped", ("  ok    sg_chain_dma_io  ",)),
    ("dma-intel-pass.console", DMA + ["--no-skip", "sg_chain_dma/sg_chain_dma_test_swiotlb"],
     1, "39 passed, 4 failed, 2 skipped",
     ("sg_chain_dma/sg_chain_dma_test_swiotlb_full: skipped in a run meant to have it",)),
    # A case the run must run that is not there at all (config lost).
    ("dma-intel-pass.console", DMA + ["--no-skip", "sg_chain_pages/sg_chain_pages_test_highmem"],
     1, "39 passed, 1 failed, 6 skipped",
     ("no result under sg_chain_pages/sg_chain_pages_test_highmem",)),
    ("dma-intel-pass.console", ["--expect", "sg_chain_dma"], 1, None,
     ("WARNING: CPU: 0 PID: 1 at kernel/dma/debug.c:571 add_dma_entry",)),
    ("dma-swiotlb-planted-sg-plus-one.console", DMA, 1, None,
     ("sg_chain_dma: crashed mapping a list of 129 entries (full pages, scattered pages)",
      "RIP: 0010:dma_direct_map_sg")),
]


def run(log, args):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = ktap.main(args + [os.path.join(GOLDEN, log)])
    return rc, buf.getvalue()


def main():
    passed = failed = 0
    for log, args, want_rc, want_last, want_text in CASES:
        rc, report = run(log, args)
        last = report.strip().splitlines()[-1]
        missing = [t for t in want_text if t not in report]
        ok = rc == want_rc and not missing and \
            (want_last is None or last == want_last)
        print(f"  {'ok  ' if ok else 'FAIL'}  {log}: exit {rc}, {last!r}"
              f"{'' if ok else f' (want exit {want_rc}, {want_last!r}, {missing!r})'}")
        if not ok:
            print(report)
        passed += ok
        failed += not ok
    print(f"ktap parser: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
