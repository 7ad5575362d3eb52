#!/usr/bin/python3
"""Judge a LAVA job from its own results, against the KTAP its guest printed.

usage: agree.py --suites 'A B ..' [--reference CONSOLE] [--require-reference]
                RESULTS CONSOLE

RESULTS is log.py's results.yaml, CONSOLE the guest's lines from the same
job. Prints a KTAP suite "lava_agrees" whose cases fail when:
  - the job did not complete (LAVA's own "job" result, with its error);
  - with --argv, the QEMU command LAVA logged ("Boot command") is not the
    runner's: other options, a repeated one, devices or drives in another
    order (files compared by name: LAVA runs its downloaded copies);
  - a suite's LAVA results (a LAVA test suite per KTAP suite, one result
    per KTAP result line under it, its own line included) differ from the
    result lines tests/qemu/ktap.py parses from the console: a case LAVA
    missed, lost or judged otherwise;
  - a KTAP suite was printed that no monitor waits for, or a monitor's
    suite never came;
  - LAVA's "kernel" monitor recorded another number of panics than the
    console shows;
  - two results of one LAVA suite share a name (a lab could not tell them
    apart);
  - with --reference (the console of the direct QEMU run of the same
    boot), the counts per suite and result differ from that run's. A
    reference that is missing, or of another kernel build (its "Linux
    version" line), is said in a comment and not compared; with
    --require-reference it fails.
Failed LAVA results themselves are failures of the KTAP judge (the same
lines), so every failed case is named there and here only if the two
disagree.
"""
import argparse
import collections
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "qemu"))
import job as jobs  # noqa: E402  (tests/lava/job.py: how LAVA builds a command)
import ktap  # noqa: E402  (tests/qemu/ktap.py: the runners' parser)


PANIC = re.compile(r"^(?:\[[ 0-9.]+\] )?Kernel panic - not syncing")
LINUX_VERSION = re.compile(r"Linux version [^\r\n]*")


def lava_name(text):
    """The case name LAVA's monitor makes of a test_case_id (monitor.py)."""
    return re.sub(r"\W+", "_", text.strip().lower())


def status(result):
    if result.skipped:
        return "skip"
    return "pass" if result.ok else "fail"


def ktap_lines(console):
    """{suite: Counter((case, result))} of every result line under each
    top-level suite of the console, the suite's own line included."""
    with open(console, errors="replace") as f:
        lines = f.readlines()
    suites, _ = ktap.parse(lines, console)
    out = collections.OrderedDict()

    def walk(node, into):
        into[(lava_name(node.name), status(node))] += 1
        for child in node.children:
            walk(child, into)

    for suite in suites:
        if suite.name.endswith(" (unfinished)"):
            name = suite.name[:-len(" (unfinished)")]
            into = out.setdefault(name, collections.Counter())
            for child in suite.children:
                walk(child, into)
        else:
            walk(suite, out.setdefault(suite.name, collections.Counter()))
    version = next((m.group(0).strip() for m in map(LINUX_VERSION.search, lines) if m), None)
    return out, version


def by_result(counter):
    c = collections.Counter()
    for (_, result), n in counter.items():
        c[result] += n
    return dict(sorted(c.items()))


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--suites", required=True)
    ap.add_argument("--reference")
    ap.add_argument("--require-reference", action="store_true")
    ap.add_argument("--argv", help="the runner's QEMU command, one argument a line")
    ap.add_argument("results")
    ap.add_argument("console")
    args = ap.parse_args(argv)
    suites = args.suites.split()

    with open(args.results) as f:
        data = yaml.safe_load(f) or {}
    results = data.get("results", [])
    lava = collections.OrderedDict((s, collections.Counter()) for s in suites)
    names = collections.Counter()
    job = None
    for r in results:
        d = r.get("definition")
        if d == "lava":
            if r.get("case") == "job":
                job = r
            continue
        lava.setdefault(d, collections.Counter())[(r.get("case"), r.get("result"))] += 1
        names[(d, r.get("case"))] += 1
    printed, version = ktap_lines(args.console)

    cases = []

    def case(ok, name, why=""):
        cases.append((ok, name, why))

    if job is None:
        case(False, "job_complete", "LAVA recorded no job result")
    else:
        why = "; ".join(str(job[k]) for k in ("error_type", "error_msg") if job.get(k))
        case(job.get("result") == "pass", "job_complete", why)

    for suite in suites:
        want, got = printed.get(suite), lava.get(suite, collections.Counter())
        if want is None:
            case(False, f"{suite}_agrees", "the guest never printed this suite")
            continue
        missed, extra = want - got, got - want
        why = ""
        if missed or extra:
            why = (f"LAVA missed {sorted(missed.elements())[:4]}"
                   f" and recorded {sorted(extra.elements())[:4]} the console does not have")
        case(not why, f"{suite}_agrees", why)
    for suite in printed:
        if suite not in suites:
            case(False, f"{suite}_has_a_monitor",
                 "printed, but no monitor of the job waits for it: add it to the runner's suites, in order")
    # What LAVA ran is what the runner would have run (job.py checked the
    # command it expected LAVA to build; this is the one LAVA did build).
    if args.argv:
        with open(args.argv) as f:
            argv = f.read().split("\n")[:-1]
        ran = data.get("boot_command")
        if not ran:
            case(False, "boot_command_is_the_runners", "LAVA logged no boot command")
        else:
            words = jobs.split_command_line(ran)
            why = jobs.command_difference(jobs.by_file_name(jobs.options(argv[1:])),
                                         jobs.by_file_name(jobs.options(words[1:])))
            if not why and os.path.basename(words[0]) != os.path.basename(argv[0]):
                why = f"LAVA ran {words[0]}, the runner {argv[0]}"
            case(not why, "boot_command_is_the_runners", why or "")

    # The panic monitor: LAVA saw a panic where the console has one.
    with open(args.console, errors="replace") as f:
        panics = sum(1 for line in f if PANIC.search(line))
    # It records the first (its end follows it): a second, as sun4u's
    # "Reboot failed" panics, is not LAVA's to count.
    got = sum(lava.get("kernel", {}).values())
    case(got == min(panics, 1), "kernel_agrees",
         f"LAVA recorded {got} kernel panics, the console has {panics}")
    dups = sorted(f"{d}/{c}" for (d, c), n in names.items() if n > 1)
    case(not dups, "case_names_unique", ", ".join(dups[:6]) + (" .." if len(dups) > 6 else ""))

    note = None
    ref = ref_version = None
    if args.reference and os.path.exists(args.reference):
        ref, ref_version = ktap_lines(args.reference)
    if ref is not None and ref_version == version:
        diff = [f"{s}: LAVA {by_result(lava.get(s, {}))}, direct {by_result(ref.get(s, {}))}"
                for s in suites if by_result(lava.get(s, {})) != by_result(ref.get(s, {}))]
        case(not diff, "counts_equal_direct_run", "; ".join(diff))
    else:
        note = (f"no direct run of this boot in {args.reference}" if ref is None else
                f"the direct run in {args.reference} booted another build: {ref_version}")
        if args.require_reference:
            case(False, "counts_equal_direct_run", note)

    print("KTAP version 1")
    print("1..1")
    print("    KTAP version 1")
    print("    # Subtest: lava_agrees")
    print(f"    1..{len(cases)}")
    for suite in suites:
        got = lava.get(suite, collections.Counter())
        print(f"    # {suite}: LAVA {sum(got.values())} results {by_result(got)}")
    if note and not args.require_reference:
        print(f"    # counts not compared: {note}")
    for r in results:
        if r.get("result") == "fail":
            print(f"    # LAVA failed: {r.get('definition')}/{r.get('case')}")
    for i, (ok, name, why) in enumerate(cases, 1):
        print(f"    {'ok' if ok else 'not ok'} {i} {name}" + (f" # {why}" if why and not ok else ""))
    print(f"{'ok' if all(c[0] for c in cases) else 'not ok'} 1 lava_agrees")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
