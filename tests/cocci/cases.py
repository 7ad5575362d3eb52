#!/usr/bin/env python3
"""Hold sg_flat_walk.cocci to the marked lines of tests/cocci/cases.

Every line of a case that ends in /* walk: FORM */ must be reported with that
form, and no other line may be reported. Each case runs through spatch with
the rule's own options, from the case's directory, so a path such as
arch/alpha/... reads as the kernel's would. Prints a line per check and
"N passed, N failed"; exits non-zero on a failure.
"""
import os
import re
import sys

import rule

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = re.compile(r"/\* walk: (\w+) \*/\s*$")


def cases():
    root = os.path.join(HERE, "cases")
    for dirpath, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".c"):
                yield os.path.join(dirpath, name)


def base_dir(path):
    # A case under cases/X/ with a kernel path below X runs from X.
    rel = os.path.relpath(path, os.path.join(HERE, "cases"))
    parts = rel.split(os.sep)
    if len(parts) > 1:
        return os.path.join(HERE, "cases", parts[0]), os.path.join(*parts[1:])
    return os.path.dirname(path), parts[0]


def main():
    passed = failed = 0
    for path in sorted(cases()):
        cwd, name = base_dir(path)
        label = os.path.relpath(path, HERE)
        try:
            got = {(h[1], h[4]) for h in rule.report(cwd, name)}
        except RuntimeError as e:
            print("FAIL %s: %s" % (label, e))
            failed += 1
            continue
        want = set()
        with open(path) as f:
            for number, line in enumerate(f, 1):
                m = MARK.search(line)
                if m:
                    want.add((number, m.group(1)))
        for line, form in sorted(want):
            ok = (line, form) in got
            print("%s %s:%d reported as %s" % ("ok  " if ok else "FAIL",
                                               label, line, form))
            passed, failed = passed + ok, failed + (not ok)
        extra = sorted(got - want)
        for line, form in extra:
            print("FAIL %s:%d reported as %s, not marked" % (label, line, form))
        failed += len(extra)
        if not extra:
            print("ok   %s: nothing reported beyond the marks" % label)
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
