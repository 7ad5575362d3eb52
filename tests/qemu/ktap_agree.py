#!/usr/bin/env python3
"""Hold sgchain's KTAP parser to the kernel's own: both read one console log.

usage: ktap_agree.py KUNIT_PY CONSOLE_LOG [--not-kunit SUITE]...

make qemu judges its console log with tests/qemu/ktap.py. This runs the
tree's tools/testing/kunit/kunit.py parse on the same log and compares,
suite by suite, the cases passed, failed and skipped, and the totals of
kunit.py's own summary line ("Testing complete. Ran N tests: ..."). A
--not-kunit suite is KTAP that sgchain's init prints after the kernel's
(sg_chain_io): kunit.py reads only the kernel's document, so it must be
in ours and not in theirs. Ends with "N passed, N failed".
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUMMARY = re.compile(r"Testing complete\. Ran (\d+) tests?: (.*)$")


def load_ktap():
    spec = importlib.util.spec_from_file_location("ktap", os.path.join(HERE, "ktap.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ours(console):
    """{suite: (passed, failed, skipped)} as make qemu's parser counts them."""
    ktap = load_ktap()
    with open(console, errors="replace") as f:
        suites, _ = ktap.parse(f.readlines(), console)
    counts = {}
    for suite in suites:
        p = f = s = 0
        for _, leaf in ktap.leaves(suite, []):
            if leaf.skipped:
                s += 1
            elif leaf.ok:
                p += 1
            else:
                f += 1
        counts[suite.name] = (p, f, s)
    return counts


def theirs(kunit_py, console):
    """({suite: (passed, failed, skipped)}, summary totals) from kunit.py parse."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "results.json")
        # kunit.py changes to the tree's top directory: absolute paths only.
        run = subprocess.run([sys.executable, kunit_py, "parse", f"--json={path}",
                              os.path.abspath(console)],
                             capture_output=True, text=True, check=False)
        try:
            with open(path) as f:
                tree = json.load(f)
        except (OSError, ValueError):
            tree = {}
    line = next((SUMMARY.search(l) for l in run.stdout.splitlines() if SUMMARY.search(l)), None)
    totals = None
    if line:
        said = dict((k, int(v)) for k, v in re.findall(r"(\w+): (\d+)", line.group(2)))
        totals = (said.get("passed", 0), said.get("failed", 0) + said.get("crashed", 0),
                  said.get("skipped", 0), int(line.group(1)))

    def count(group):
        p = f = s = 0
        for case in group.get("test_cases", []):
            status = case["status"]
            if status == "PASS":
                p += 1
            elif status == "SKIP":
                s += 1
            else:
                f += 1
        for sub in group.get("sub_groups", []):
            sp, sf, ss = count(sub)
            p, f, s = p + sp, f + sf, s + ss
        return p, f, s

    return {g["name"]: count(g) for g in tree.get("sub_groups", [])}, totals, run


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kunit_py")
    ap.add_argument("console")
    ap.add_argument("--not-kunit", action="append", default=[])
    args = ap.parse_args(argv)

    mine = ours(args.console)
    kunit, totals, run = theirs(args.kunit_py, args.console)
    passed = failed = 0

    def judge(ok, text):
        nonlocal passed, failed
        print(f"  {'ok  ' if ok else 'FAIL'}  {text}")
        passed, failed = passed + ok, failed + (not ok)

    fmt = "{} passed, {} failed, {} skipped".format
    for name in args.not_kunit:
        judge(name in mine and name not in kunit,
              f"{name}: sgchain's own KTAP, read by ktap.py only")
        mine.pop(name, None)
    if not kunit:
        judge(False, f"kunit.py parse found no suite (exit {run.returncode}): "
              + " | ".join(run.stdout.strip().splitlines()[-3:]))
    for name in sorted(set(mine) | set(kunit)):
        a, b = mine.get(name), kunit.get(name)
        judge(a == b, f"{name:<24} ktap.py {fmt(*a) if a else 'absent'}; "
              f"kunit.py {fmt(*b) if b else 'absent'}")
    total = tuple(map(sum, zip(*mine.values()))) if mine else (0, 0, 0)
    if totals is None:
        judge(False, "kunit.py printed no 'Testing complete' line")
    else:
        judge(totals[:3] == total and totals[3] == sum(total),
              f"totals: ktap.py {fmt(*total)}; kunit.py ran {totals[3]}, {fmt(*totals[:3])}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
