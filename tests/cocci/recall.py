#!/usr/bin/env python3
"""make cocci-recall: does sg_flat_walk.cocci find the walks Linux fixed?

Three corpora, each over scratch copies of Linux 6.1's own files (taken from
the cached tree's git, never kept):

  recall/NN-*.patch  a historical fix of the 2007 bug class with only its
                     walk reverted, against pristine 6.1; each "Walk:" line
                     names a function and a form the rule must report in the
                     reverted file beyond what it reports in the pristine one,
                     unless the line says "; quiet: WHY" (the rule is right
                     to stay quiet: it must) or "; missed: WHY" (a known miss:
                     it must stay one, so a better rule updates the corpus)
  plants             the sg++ bugs of tests/mutate/mutations that land in
                     kernel files, planted the same way
  negatives          walks in pristine 6.1 of a flat array the code builds
                     (or where nothing chains, or that follow links): never
                     reported

Usage: recall.py --ksrc KSRC --work DIR [NAME_GLOB...]
Prints a line per check and "N passed, N failed".
"""
import argparse
import concurrent.futures
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys

import rule

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(rule.REPO, "tests", "mutate"))
import mutate  # noqa: E402

REPO = rule.REPO
WALK = re.compile(r"^Walk: (?P<path>[^:]+):(?P<function>\w+): "
                  r"(?P<form>advance|offset|arith|index)\b(?P<rest>.*)$")
EXPECT = re.compile(r"; (?P<expect>quiet|missed): (?P<why>.*)$")
# The corpus says "arith" where the rule says "offset".
FORM_ALIASES = {"arith": "offset"}


def git_show(ksrc, rev, path):
    return subprocess.run(["git", "-C", ksrc, "show", "%s:%s" % (rev, path)],
                          check=True, capture_output=True).stdout


def write(root, path, data):
    dest = os.path.join(root, path)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "wb") as f:
        f.write(data)


def copy_headers(ksrc, rev, root, path):
    """The quoted headers beside a file, as --local-includes reads them."""
    folder = os.path.dirname(path)
    listing = subprocess.run(["git", "-C", ksrc, "ls-tree", "--name-only", rev, folder + "/"],
                             check=True, capture_output=True, text=True).stdout.split()
    for name in listing:
        if name.endswith(".h"):
            write(root, name, git_show(ksrc, rev, name))


def scan(root, path):
    """[(function, form, expression), ...]: the rule's reports on one file."""
    return [(h[3], h[4], h[5]) for h in rule.report(root, path)]


def count(reports, function, form):
    return sum(1 for r in reports if r[:2] == (function, form))


def judge(expect, gained):
    """A walk's verdict: reported, or quiet/missed as the corpus says."""
    if expect is None:
        return gained, "reported" if gained else "NOT reported"
    return not gained, ("%s as the corpus says" % expect if not gained else
                        "reported, but the corpus says %s: update it" % expect)


def patch_cases(args):
    for patch in sorted(glob.glob(os.path.join(HERE, "recall", "*.patch"))):
        name = os.path.basename(patch)[:-len(".patch")]
        text = open(patch).read()
        path = re.search(r"^--- a/(\S+)", text, re.M).group(1)
        walks = [WALK.match(line) for line in text.splitlines() if line.startswith("Walk: ")]
        if not walks or not all(walks):
            yield name, None, "a Walk: line is not 'PATH:FUNCTION: FORM ...'"
            continue
        yield name, (patch, path, walks), None


def run_patch(args, name, patch, path, walks):
    root = os.path.join(args.work, "recall", name)
    shutil.rmtree(root, ignore_errors=True)
    pristine = git_show(args.ksrc, "pristine", path)
    results = []
    for side in ("before", "after"):
        write(os.path.join(root, side), path, pristine)
        copy_headers(args.ksrc, "pristine", os.path.join(root, side), path)
    applied = subprocess.run(["patch", "-s", "-p1", "-i", patch], cwd=os.path.join(root, "after"),
                             capture_output=True, text=True)
    if applied.returncode != 0:
        return [(False, "%s: the patch does not apply to 6.1's %s: %s" %
                 (name, path, applied.stdout + applied.stderr))]
    before = scan(os.path.join(root, "before"), path)
    after = scan(os.path.join(root, "after"), path)
    for w in walks:
        form = FORM_ALIASES.get(w["form"], w["form"])
        expect = EXPECT.search(w["rest"])
        gained = count(after, w["function"], form) > count(before, w["function"], form)
        ok, verdict = judge(expect and expect["expect"], gained)
        results.append((ok, "%s: %s() %s: %s" % (name, w["function"], form, verdict)))
    return results


def plant_source(args, mutation):
    """(tree path, file content) a kernel-side mutation plants into."""
    name = mutation["file"]
    if name.startswith("tree:"):
        path = name[len("tree:"):]
        return path, git_show(args.ksrc, "pristine", path), "pristine"
    if name.startswith("kernel:"):
        path = name[len("kernel:"):]
        head = open(os.path.join(args.ksrc, ".git", "sgchain-head")).read().strip()
        return path, git_show(args.ksrc, head, path), head
    if name == "core/scatterlist_chain.h":
        with open(os.path.join(REPO, name), "rb") as f:
            return "include/linux/scatterlist_chain.h", f.read(), None
    raise ValueError("%s: not a kernel file" % name)


def run_plant(args, fields, mutation):
    mid, expect, function, form = fields[:4]
    root = os.path.join(args.work, "plants", mid.replace("/", "_"))
    shutil.rmtree(root, ignore_errors=True)
    path, data, rev = plant_source(args, mutation)
    text = data.decode()
    planted = mutate.replace_nth(text, mutation["find"], mutation["replace"],
                                 int(mutation.get("occurrence", 1)))
    if planted is None or (text.count(mutation["find"]) != 1 and "occurrence" not in mutation):
        return [(False, "plant %s: its find text is not in %s as the list says" % (mid, path))]
    for side, content in (("before", text), ("after", planted)):
        write(os.path.join(root, side), path, content.encode())
        if rev:
            copy_headers(args.ksrc, rev, os.path.join(root, side), path)
    before = scan(os.path.join(root, "before"), path)
    after = scan(os.path.join(root, "after"), path)
    gained = count(after, function, form) > count(before, function, form)
    ok, verdict = judge(None if expect == "reported" else expect, gained)
    return [(ok, "plant %s: %s() %s: %s" % (mid, function, form, verdict))]


def run_negative(args, fields):
    path, function, expression, snippet = fields[:4]
    root = os.path.join(args.work, "negatives", path.replace("/", "_"))
    shutil.rmtree(root, ignore_errors=True)
    data = git_show(args.ksrc, "pristine", path)
    if snippet.encode() not in data:
        return [(False, "negative %s:%s(): its walk '%s' is no longer in the file" %
                 (path, function, snippet))]
    write(root, path, data)
    copy_headers(args.ksrc, "pristine", root, path)
    found = sum(1 for r in scan(root, path) if (r[0], r[2]) == (function, expression))
    return [(found == 0, "negative %s:%s(): %s %s" % (path, function, expression,
                                                     "quiet" if not found else
                                                     "reported %d times" % found))]


def table(name):
    """Rows of a tab-separated corpus file, without comments."""
    with open(os.path.join(HERE, name)) as f:
        return [line.rstrip("\n").split("\t") for line in f
                if line.strip() and not line.startswith("#")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ksrc", required=True, help="the cached Linux 6.1 tree (git, tag pristine)")
    ap.add_argument("--work", required=True)
    ap.add_argument("only", nargs="*", help="names to run (globs)")
    args = ap.parse_args()

    def wanted(name):
        return not args.only or any(fnmatch.fnmatch(name, g) for g in args.only)

    mutations = {m["id"]: m for m in mutate.parse_list(
        os.path.join(REPO, "tests", "mutate", "mutations"))}
    jobs, results = [], []
    for name, case, error in patch_cases(args):
        if wanted(name):
            if error:
                results.append((False, "%s: %s" % (name, error)))
            else:
                jobs.append((run_patch, (args, name) + case))
    for fields in table("plants"):
        if not wanted(fields[0]):
            continue
        if fields[0] not in mutations:
            results.append((False, "plant %s: no such mutation in tests/mutate/mutations" %
                            fields[0]))
            continue
        jobs.append((run_plant, (args, fields, mutations[fields[0]])))
    for fields in table("negatives"):
        if wanted(fields[0]):
            jobs.append((run_negative, (args, fields)))

    workers = max(1, min(2, os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(fn, *fn_args) for fn, fn_args in jobs]
        for future in futures:
            try:
                results.extend(future.result())
            except (RuntimeError, subprocess.CalledProcessError, ValueError, OSError) as e:
                results.append((False, "error: %s" % e))
    for ok, line in results:
        print("%s %s" % ("ok  " if ok else "FAIL", line))
    failed = sum(1 for ok, _ in results if not ok)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
