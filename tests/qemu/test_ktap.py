#!/usr/bin/env python3
"""The KTAP parser on saved console logs: what it must count and flag.

golden/pass.console        a real passing run (kernel lines interleaved)
golden/fail-sg-next.console a real run with sg_next() not following links
golden/hang.console        the passing run cut short, as the watchdog leaves it
golden/panic.console       the passing run ending in a panic when init starts
golden/parisc-pass.console a real passing no-chain run: skipped cases, and the
                           B160L's boot-time SLUB warning, excused by name
golden/parisc-skips-counted-as-ok.console  a real run where 6.1 printed
                           skipped parameters as "ok" (KUnit's counts disagree)
golden/parisc-extra-warning.console  parisc-pass with a second warning
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

# The one warning make qemu-parisc excuses (tests/qemu/run.sh).
PARISC = ["--allow-warning", r"at ___slab_alloc\+.*kmem_cache_init.*start_kernel"]

# (log, extra arguments, exit code, closing line, texts the report must hold)
CASES = [
    ("pass.console", [], 0, "84 passed, 0 failed",
     ("  ok    sg_chain  ", "  ok    sg_chain_fault  ", "  ok    sg_chain_io  ")),
    ("fail-sg-next.console", [], 1, "0 passed, 12 failed",
     ("sg_chain (unfinished)/sg_chain_test_chained_every_size: ",
      "list of 129: table 0 entry 127 is not a clean link",
      "RIP: 0010:sg_chain_expect_shape", "suite sg_chain_io never reported")),
    ("hang.console", [], 1, None,
     ("watchdog fired", "suite sg_chain_io never reported",
      "never printed: 'sgchain-init: done'")),
    ("panic.console", [], 1, None, ("Kernel panic - not syncing",)),
    ("parisc-pass.console", PARISC, 0, "55 passed, 0 failed, 1 skipped",
     ("  ok    sg_chain_io  ",)),
    ("parisc-pass.console", [], 1, "55 passed, 1 failed, 1 skipped",
     ("WARNING: CPU: 0 PID: 0 at ___slab_alloc",)),
    ("parisc-skips-counted-as-ok.console", PARISC, 1, "78 passed, 3 failed",
     ("sg_chain_test_kmalloc_boundary: KUnit counted pass:14 fail:0 skip:7, "
      "its result lines pass:21",)),
    ("parisc-extra-warning.console", PARISC, 1, "55 passed, 1 failed, 1 skipped",
     ("WARNING: CPU: 0 PID: 1 at sg_alloc_tables",)),
]


def run(log, extra):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = ktap.main(EXPECT + extra + [os.path.join(GOLDEN, log)])
    return rc, buf.getvalue()


def main():
    passed = failed = 0
    for log, extra, want_rc, want_last, want_text in CASES:
        rc, report = run(log, extra)
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
