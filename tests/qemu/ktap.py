#!/usr/bin/env python3
"""Parse the KTAP in a QEMU console log and judge the run.

usage: ktap.py [--expect NAME]... [--require-line TEXT]...
               [--allow-warning REGEX]... [--no-skip PATH]...
               [--skip-note SUITE=TEXT]... FILE...

Finds KTAP wherever it is in the files (kernel messages may interleave),
builds the tree of results from the indentation, and counts the leaves:
a result with subtests is judged by them, not counted itself. Fails when
a leaf fails, a plan is not met, an expected suite is missing or out of
the order given, a required
line never appears (the init script's last words), or the kernel
panicked, oopsed, warned or the watchdog fired. --allow-warning excuses
one warning whose whole report (cut here .. end trace) matches REGEX: a
known warning of an emulated machine, each named where it is allowed.
--no-skip fails a skipped result under PATH (suite/case), and fails if no
result is under PATH: a run that has the device a case needs must neither
let it skip nor lose it. A suite whose every case
skipped is shown as skipped with the kernel's reasons, and --skip-note
adds where it does run.
Ends with one line "N passed, N failed" and exits non-zero on any failure.
"""
import argparse
import re
import sys

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ")
RESULT = re.compile(r"^( *)(ok|not ok) (\d+)(?: -)?(?: (.*))?$")
VERSION = re.compile(r"^( *)K?TAP version \d+$")
PLAN = re.compile(r"^( *)1\.\.(\d+)$")
DIAG = re.compile(r"^( *)# (.*)$")
SUBTEST = re.compile(r"^( *)# Subtest: (.*)$")
KERNEL_TROUBLE = re.compile(
    r"Kernel panic|BUG: |Oops|WARNING: CPU|RIP: |\[qemu\] watchdog fired"
    r"|sg_chain_dma: crashed mapping")


class Result:
    def __init__(self, ok, number, name, directive, line, children):
        self.ok = ok
        self.number = number
        self.name = name
        self.directive = directive
        self.line = line
        self.children = children

    @property
    def skipped(self):
        return self.directive.upper().startswith("SKIP")


CUT_HERE = re.compile(r"-+\[ cut here \]-+")
END_TRACE = re.compile(r"---\[ end trace")


def excused_lines(lines, allowances):
    """Line numbers of warning reports that an allowance excuses, once each."""
    excused, unused = set(), list(allowances)
    start = None
    for number, raw in enumerate(lines, 1):
        line = TIMESTAMP.sub("", raw.rstrip("\r\n"))
        if CUT_HERE.search(line):
            start = number
        elif start and END_TRACE.search(line):
            report = "\n".join(lines[start - 1:number])
            match = next((a for a in unused if re.search(a, report, re.S)), None)
            if match:
                unused.remove(match)
                excused.update(range(start, number + 1))
            start = None
    return excused


def parse(lines, source, allowances=()):
    """Return (top-level results, problems) for one file."""
    pending = {}      # indent level -> results seen since its parent
    subtests = {}     # indent level -> name from its "# Subtest:" line
    context = []      # lines since the last result: why a test failed
    plans = {}        # indent level -> (planned, line number, results before)
    diags = {}        # indent level -> last diagnostic lines
    problems = []

    def close_plan(level):
        if level in plans:
            want, where, before = plans.pop(level)
            got = len(pending.get(level, [])) - before
            if got != want:
                problems.append(f"{source}:{where}: planned {want} tests, "
                                f"saw {got}")

    excused = excused_lines(lines, allowances)
    for number, raw in enumerate(lines, 1):
        if number in excused:
            continue
        line = TIMESTAMP.sub("", raw.rstrip("\r\n"))
        if KERNEL_TROUBLE.search(line):
            context.append(line.strip())
            problems.append(f"{source}:{number}: {line.strip()}")
            continue
        m = VERSION.match(line)
        if m:
            level = len(m.group(1)) // 4
            close_plan(level)
            # Top-level results of earlier documents (KUnit's, then the
            # init script's) all stay: they are the suites of the run.
            if level:
                pending[level] = []
            continue
        m = PLAN.match(line)
        if m:
            level = len(m.group(1)) // 4
            plans[level] = (int(m.group(2)), number,
                            len(pending.get(level, [])))
            continue
        m = RESULT.match(line)
        if m:
            level = len(m.group(1)) // 4
            text = m.group(4) or ""
            name, _, directive = text.partition(" # ")
            close_plan(level + 1)
            children = pending.pop(level + 1, [])
            for deeper in [k for k in pending if k > level + 1]:
                del pending[deeper]
            result = Result(m.group(2) == "ok", int(m.group(3)), name.strip(),
                            directive.strip(), number, children)
            result.diags = diags.pop(level, [])
            disagreement = stats_disagree(result)
            if disagreement:
                problems.append(f"{source}:{number}: {disagreement}")
            result.context = [c for c in context if c][-5:]
            context = []
            pending.setdefault(level, []).append(result)
            continue
        m = SUBTEST.match(line)
        if m:
            subtests[len(m.group(1)) // 4] = m.group(2).strip()
            continue
        m = DIAG.match(line)
        if m:
            diags.setdefault(len(m.group(1)) // 4, []).append(m.group(2))
        context.append(line.strip())
    for level in sorted(plans, reverse=True):
        close_plan(level)
    # Results of a suite the run never finished: keep them under its name.
    for level in sorted((k for k in pending if k > 0), reverse=True):
        if pending[level]:
            unfinished = Result(True, 0, subtests.get(level, "?") +
                                " (unfinished)", "", 0, pending[level])
            pending.setdefault(level - 1, []).append(unfinished)
    return pending.get(0, []), problems


KUNIT_STATS = re.compile(r"^(.*): pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)$")


def stats_disagree(result):
    """KUnit's own counts for a case with parameters, if the lines say otherwise.

    6.1 prints a skipped parameter as a plain "ok": without this check the
    skipped ones would count as passed.
    """
    for diag in getattr(result, "diags", []):
        m = KUNIT_STATS.match(diag)
        if not m or m.group(1) != result.name or not result.children:
            continue
        kids = result.children
        seen = (sum(1 for c in kids if c.ok and not c.skipped),
                sum(1 for c in kids if not c.ok),
                sum(1 for c in kids if c.skipped))
        said = tuple(int(g) for g in m.groups()[1:4])
        if seen != said:
            return (f"{result.name}: KUnit counted pass:{said[0]} fail:{said[1]} "
                    f"skip:{said[2]}, its result lines pass:{seen[0]} "
                    f"fail:{seen[1]} skip:{seen[2]}")
    return None


def leaves(result, path):
    """Yield (path, result) for every leaf under result."""
    path = path + [result.name]
    if not result.children:
        yield path, result
    for child in result.children:
        yield from leaves(child, path)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--expect", action="append", default=[],
                    help="a top-level suite that must be present, in this order")
    ap.add_argument("--require-line", action="append", default=[],
                    help="text that must appear on some line")
    ap.add_argument("--no-skip", action="append", default=[],
                    help="a result path (suite/case) that this run must not skip")
    ap.add_argument("--allow-warning", action="append", default=[],
                    help="a regex over one warning report to excuse")
    ap.add_argument("--skip-note", action="append", default=[],
                    metavar="SUITE=TEXT",
                    help="why SUITE skips in this run, shown if it all skipped")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)

    suites, problems, texts = [], [], {}
    for path in args.files:
        try:
            with open(path, errors="replace") as f:
                lines = f.readlines()
        except OSError as e:
            problems.append(f"{path}: {e.strerror}")
            continue
        texts[path] = lines
        found, trouble = parse(lines, path, args.allow_warning)
        suites.extend(found)
        problems.extend(trouble)

    text = [line for lines in texts.values() for line in lines]
    notes = dict(n.split("=", 1) for n in args.skip_note)
    passed = failed = skipped = 0
    failures = []
    seen = set()
    for suite in suites:
        s_pass = s_fail = s_skip = 0
        reasons = []
        for path, leaf in leaves(suite, []):
            where = "/".join(path)
            seen.update(p for p in args.no_skip if where.startswith(p))
            if leaf.skipped and any(where.startswith(p) for p in args.no_skip):
                s_fail += 1
                failures.append(f"{where}: skipped in a run meant to have it "
                                f"({leaf.directive})")
            elif leaf.skipped:
                s_skip += 1
                why = re.sub(r"(?i)^skip\s*", "", leaf.directive)
                if why and why not in reasons:
                    reasons.append(why)
            elif leaf.ok:
                s_pass += 1
            else:
                s_fail += 1
                why = leaf.directive or "; ".join(leaf.diags[-2:])
                failures.append("/".join(path) + (f": {why}" if why else ""))
                failures.extend("    | " + c for c in leaf.context
                                if not c.startswith("# "))
        if s_fail == 0 and not suite.ok and not suite.skipped:
            # A suite that failed with no failing leaf (a crash, a bad plan).
            s_fail = 1
            failures.append(f"{suite.name}: reported not ok")
        passed += s_pass
        failed += s_fail
        skipped += s_skip
        if s_fail == 0 and s_pass == 0 and s_skip:
            # Nothing ran: not "ok, 0 passed", but skipped, and why.
            why = "; ".join(reasons) or "no reason given"
            if suite.name in notes:
                why = f"{notes[suite.name]} ({why})"
            print(f"  skip  {suite.name:<40} {s_skip:4d} skipped: {why}")
            continue
        print(f"  {'ok  ' if s_fail == 0 else 'FAIL'}  {suite.name:<40} "
              f"{s_pass:4d} passed {s_fail:3d} failed"
              + (f" {s_skip:3d} skipped" if s_skip else ""))

    names = {s.name for s in suites}
    for want in args.expect:
        if want not in names:
            problems.append(f"suite {want} never reported (crash, hang or "
                            f"not built in?)")
    # The expected suites come in the order given: make lava's monitors
    # wait for them in that order (tests/lava/job.py).
    order = [s.name for s in suites if s.name in args.expect]
    present = [w for w in args.expect if w in names]
    if order != present:
        problems.append(f"suites came in the order {' '.join(order)}, "
                        f"not {' '.join(present)}")
    for want in args.no_skip:
        if want not in seen:
            problems.append(f"no result under {want}: a case this run must run")
    for want in args.require_line:
        if not any(want in line for line in text):
            problems.append(f"never printed: {want!r}")

    for problem in problems:
        failures.append(problem)
        failed += 1
        if "watchdog fired" in problem:
            # Where the guest stopped: the last lines of its console.
            source = problem.split(":", 1)[0]
            before = [l.rstrip() for l in texts.get(source, text) if l.strip()
                      and "watchdog fired" not in l and "terminating on signal" not in l]
            failures.extend("    | " + l for l in before[-3:])
    if failures:
        print("failed:")
        for f in failures:
            print(f"  {f}")
    print(f"{passed} passed, {failed} failed"
          + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
