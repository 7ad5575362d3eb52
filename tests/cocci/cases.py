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
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "cocci"))
import hits  # noqa: E402

# COCCI_RULE: another copy of the rule (a planted bug, a draft).
RULE = os.environ.get("COCCI_RULE",
                      os.path.join(REPO, "cocci", "sg_flat_walk.cocci"))
MARK = re.compile(r"/\* walk: (\w+) \*/\s*$")


def rule_options():
    with open(RULE) as f:
        for line in f:
            if line.startswith("// Options:"):
                return line.split(":", 1)[1].split()
    return []


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
    options = rule_options()
    for path in sorted(cases()):
        cwd, name = base_dir(path)
        out = subprocess.run(["spatch", "--very-quiet", "-D", "report"] +
                             options + ["--sp-file", RULE, name],
                             cwd=cwd, capture_output=True, text=True)
        label = os.path.relpath(path, HERE)
        if out.returncode != 0:
            print("FAIL %s: spatch exited %d: %s" % (label, out.returncode,
                                                     out.stderr.strip()[-300:]))
            failed += 1
            continue
        got = {(h[1], h[4]) for h in hits.parse(out.stdout.splitlines())}
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
