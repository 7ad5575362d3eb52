#!/usr/bin/env python3
"""make walkfix-test: each reachable walk, wrong on a chained list and right
once its fix is applied.

A case (tests/walkfix/cases/*.c) names in its header the tree file and the
functions that walk, and the subject of its fix in kport/walk-fixes:

    * walkfix: drivers/foo/bar.c function_a function_b
    * fix: subsystem: the subject of the fix

Each case is built twice over usim, with ASan and UBSan, from the functions
as a scratch copy of pristine Linux 6.12 has them: once as they are, which
must fail (the case shows what they take from a chained list), and once with
the fix applied, which must pass. So reverting a fix fails its test.

Usage: run.py --ksrc KSRC_6.12 --usim LIBUSIM_A --work DIR [CASE_GLOB...]
Prints a line per check and "N passed, N failed".
"""
import argparse
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXES = os.path.join(REPO, "kport", "walk-fixes")
CFLAGS = ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
          "-Wno-sign-compare", "-O1", "-g", "-fsanitize=address,undefined",
          "-fno-sanitize-recover=undefined"]


def header(case, key):
    m = re.search(r"^ \* %s: (.+)$" % key, open(case).read(), re.M)
    if not m:
        raise ValueError("%s has no '%s:' line" % (case, key))
    return m.group(1).strip()


def fix_patch(subject):
    for patch in sorted(glob.glob(os.path.join(FIXES, "[0-9]*.patch"))):
        text = open(patch).read()
        m = re.search(r"^Subject: \[PATCH[^]]*\] (.+(?:\n .+)*)", text, re.M)
        if m and re.sub(r"\n ", " ", m.group(1)) == subject:
            return patch
    raise ValueError("no patch in kport/walk-fixes has the subject '%s'" % subject)


def build_and_run(args, case, root, path, functions, label):
    extract = os.path.join(root, "extract.c")
    with open(extract, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "extract.py"),
                        os.path.join(root, path)] + functions, check=True, stdout=f)
    binary = os.path.join(root, "case")
    cc = subprocess.run(["gcc"] + CFLAGS + ["-I", os.path.join(REPO, "usim", "include"),
                                            "-I", os.path.join(REPO, "usim"), "-I", HERE,
                                            '-DWALKFIX_EXTRACT="%s"' % extract, case,
                                            args.usim, "-o", binary],
                        capture_output=True, text=True)
    if cc.returncode:
        raise RuntimeError("%s: the case does not build:\n%s" % (label, cc.stderr[-2000:]))
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    run = subprocess.run([binary], capture_output=True, text=True, timeout=60, env=env)
    with open(os.path.join(root, "output.txt"), "w") as f:
        f.write(run.stdout + run.stderr)
    return run


def run_case(args, case):
    name = os.path.basename(case)[:-2]
    path, *functions = header(case, "walkfix").split()
    patch = fix_patch(header(case, "fix"))
    results = []
    for fixed in (False, True):
        root = os.path.join(args.work, name, "fixed" if fixed else "pristine")
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.dirname(os.path.join(root, path)))
        with open(os.path.join(root, path), "wb") as f:
            f.write(subprocess.run(["git", "-C", args.ksrc, "show", "pristine:" + path],
                                   check=True, capture_output=True).stdout)
        if fixed:
            subprocess.run(["patch", "-s", "-p1", "-i", patch], cwd=root, check=True)
        label = "%s (%s)" % (name, "with " + os.path.basename(patch) if fixed else "pristine")
        run = build_and_run(args, case, root, path, functions, label)
        wrong = [l for l in run.stdout.splitlines() if l.startswith("FAIL")]
        if fixed:
            ok = run.returncode == 0
            verdict = "right" if ok else "still wrong (exit %d): %s" % (
                run.returncode, (wrong or run.stderr.splitlines() or ["?"])[0])
        else:
            # Wrong as a check says, not as a crash of the harness.
            ok = run.returncode == 1 and bool(wrong)
            verdict = ("wrong as expected: %s" % wrong[0]) if ok else \
                "not shown wrong (exit %d): %s" % (run.returncode,
                                                  (run.stderr.splitlines() or ["?"])[-1])
        results.append((ok, "%s: %s" % (label, verdict)))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ksrc", required=True)
    ap.add_argument("--usim", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("only", nargs="*")
    args = ap.parse_args()
    args.usim = os.path.abspath(args.usim)
    args.work = os.path.abspath(args.work)
    results = []
    for case in sorted(glob.glob(os.path.join(HERE, "cases", "*.c"))):
        if args.only and not any(fnmatch.fnmatch(os.path.basename(case), g)
                                 for g in args.only):
            continue
        try:
            results.extend(run_case(args, case))
        except (ValueError, RuntimeError, subprocess.SubprocessError, OSError) as e:
            results.append((False, str(e)))
    for ok, line in results:
        print("%s %s" % ("ok  " if ok else "FAIL", line))
    failed = sum(1 for ok, _ in results if not ok)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
