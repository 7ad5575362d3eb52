#!/usr/bin/env python3
"""make mutate: plant each bug of a committed list, alone, and run the fast
suites (make unit, then make diff) on it.

Every mutation must be killed (a suite fails; the first failing tests are
recorded) or be marked equivalent in the list, with the reason it cannot
change behaviour. A survivor that is not marked, a mutation marked
equivalent that a suite kills, a find text that is missing or ambiguous, or
a mutation that does not build is a failure: the list says what it means,
or it is fixed.

The work happens in a scratch copy of the source (WORK/src) and its own
build directory (WORK/build): the checkout is never touched. Kernel files
are mutated where usim compiles them: "kernel:lib/X.c" names the patched
Linux 6.1 file in WORK/build/kfiles/patched/lib (and the copies of its
halves that make diff compiles, where the text occurs there). With
--kernel, "tree:PATH" names a file of the kernel tree itself (KSRC): it
is listed in KSRC/.git/sgchain-planted while planted, so that a run killed
before it puts the file back leaves word for kport/tree.sh, which does.

Usage: mutate.py [--list FILE] [--work DIR] [--timeout S] [ID_GLOB...]
Ends with "N passed, N failed".
"""
import argparse
import fnmatch
import os
import re
import shutil
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# What the fast suites need from the checkout; build outputs stay out.
SOURCES = ["Makefile", "core", "usim", "tests", "scripts", "kport"]
KEYS = ("id", "file", "find", "replace", "occurrence", "bug", "equivalent", "build_error",
        "run")


def unescape(text):
    """\\n and \\t in list values stand for a newline and a tab."""
    return re.sub(r"\\([nt\\])", lambda m: {"n": "\n", "t": "\t", "\\": "\\"}[m.group(1)], text)


def parse_list(path):
    """Blocks of "key: value" lines separated by blank lines; # comments."""
    mutations, cur, lineno = [], {}, 0
    with open(path) as f:
        lines = f.read().split("\n")
    for lineno, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                mutations.append(cur)
                cur = {}
            continue
        key, sep, value = line.partition(": ")
        if not sep or key not in KEYS:
            sys.exit(f"{path}:{lineno}: expected 'key: value' with key in {KEYS}")
        if key in cur:
            sys.exit(f"{path}:{lineno}: {key} given twice")
        cur[key] = value
        cur.setdefault("line", lineno)
    ids = set()
    for m in mutations:
        for key in ("id", "file", "find", "replace", "bug"):
            if key not in m:
                sys.exit(f"{path}:{m['line']}: mutation without {key}")
        if m["id"] in ids:
            sys.exit(f"{path}:{m['line']}: id {m['id']} used twice")
        ids.add(m["id"])
        if not re.fullmatch(r"[1-9][0-9]*", m.get("occurrence", "1")):
            sys.exit(f"{path}:{m['line']}: {m['id']}: occurrence must be a number from 1")
        m["find"] = unescape(m["find"])
        m["replace"] = unescape(m["replace"])
        if m["find"] == m["replace"]:
            sys.exit(f"{path}:{m['line']}: {m['id']} replaces a text by itself")
    return mutations


def targets(m, src, kfiles, ksrc):
    """The files a mutation edits: one, or a kernel file and its halves.

    "tree:PATH" is in the kernel tree @ksrc, "kernel:lib/X.c" in 6.1's
    patched files under @kfiles, anything else in the sources at @src.
    """
    name = m["file"]
    if name.startswith("tree:"):
        return [os.path.join(ksrc, name[len("tree:"):])], []
    if name.startswith("kernel:"):
        path = os.path.join(kfiles, "patched", name[len("kernel:"):])
        stem, ext = os.path.splitext(path)
        halves = [p for p in (stem + "-part" + ext, stem + "-rest" + ext) if os.path.exists(p)]
        return [path], halves
    return [os.path.join(src, name)], []


def replace_nth(text, find, replace, nth):
    at = -1
    for _ in range(nth):
        at = text.find(find, at + 1)
        if at < 0:
            return None
    return text[:at] + replace + text[at + len(find):]


def run_cmd(cmd, cwd, timeout, log):
    """Run a command in its own process group; (exit code or 'timeout', output)."""
    with open(log, "a") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True)
        try:
            text, _ = proc.communicate(timeout=timeout)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            text, _ = proc.communicate()
            rc = "timeout"
        except BaseException:
            # Stopped (Ctrl-C, SIGTERM): no build goes on with a file
            # that is about to be put back.
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
        out.write(text)
    return rc, text


def failures_in(text):
    """The runner lines after 'failed:' (unit and diff print them so)."""
    lines = text.split("\n")
    if "failed:" not in lines:
        return []
    out = []
    for line in lines[lines.index("failed:") + 1:]:
        if not line.startswith("  "):
            break
        out.append(line.strip())
    return out


def suites(make, timeout, log, build_error=None):
    """make unit, then make diff if unit passed: (verdict, detail)."""
    for target in ("unit", "diff"):
        rc, text = run_cmd(make + [target], os.path.join(WORK, "src"), timeout, log)
        if rc == 0:
            continue
        if rc == "timeout":
            return "killed", f"{target}: timed out after {timeout} s"
        if re.search(r"error:|Error [0-9]+\s*$", text, re.M) and not failures_in(text) \
                and "passed," not in text:
            if build_error and build_error in text:
                return "killed", f"{target}: the build, gcc says '{build_error}'"
            return "no-build", f"{target}: does not build (see the log)"
        fails = failures_in(text)
        first = fails[0] if fails else "the suite failed"
        more = f" (+{len(fails) - 1} more)" if len(fails) > 1 else ""
        return "killed", f"{target}: {first[:110]}{more}"
    return "survived", ""


def kernel_tree():
    """KSRC as the kernel targets see it (kport/env.sh: the make line or the default)."""
    return subprocess.check_output(
        ["bash", "-c", 'source kport/env.sh >/dev/null && echo "$KSRC"'], cwd=REPO,
        text=True).strip()


def kernel_run(run, timeout, log):
    """The make target (and knobs) a kernel mutation names: (verdict, detail)."""
    cmd = ["make", "--no-print-directory", "O=../build"] + run.split()
    rc, text = run_cmd(cmd, os.path.join(WORK, "src"), timeout, log)
    if rc == 0:
        return "survived", ""
    if rc == "timeout":
        return "killed", f"{run}: timed out after {timeout} s"
    # The runner's own line for the failed boot, and its first failure.
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if re.search(r"[1-9][0-9]* failed", line) and "passed" in line:
            # The runner's first failed suite or case after it.
            after = next((x.strip() for x in lines[i + 1:i + 60]
                          if re.match(r"\s*(FAIL|not ok)\b", x)), "")
            return "killed", f"{run}: {line.strip()[:90]} {after[:100]}"
    for line in lines:
        if re.search(r"error:|Error [0-9]+", line):
            return "no-build", f"{run}: {line.strip()[:120]}"
    return "killed", f"{run}: exit {rc}"


def find_problem(m, text):
    """Why @m cannot be planted in @text (its find text missing, or more often
    than the entry says), or None."""
    nth = int(m.get("occurrence", "1"))
    hits = text.count(m["find"])
    if hits == 0 or (hits > 1 and "occurrence" not in m) or nth > hits:
        return (f"find text occurs {hits} times in {m['file']}"
                + ("" if "occurrence" not in m else f", occurrence {nth} asked"))
    return None


def check_finds(list_path, kfiles, ksrc):
    """make mutate-check: each entry's find text occurs in its file as the
    entry says, read where a run would plant it (the checkout, 6.1's patched
    files in @kfiles, or the kernel tree's HEAD): seconds, no build."""
    mutations = parse_list(list_path)
    shown = os.path.relpath(list_path, REPO)
    if shown.startswith(".."):
        shown = list_path
    passed = failed = 0
    for m in mutations:
        name = m["file"]
        path = targets(m, REPO, kfiles, ksrc)[0][0]
        try:
            if name.startswith("tree:"):
                # HEAD: a running make mutate-kernel may have the file planted.
                text = subprocess.run(["git", "-C", ksrc, "--git-dir=.git", "show",
                                       "HEAD:" + os.path.relpath(path, ksrc)],
                                      capture_output=True, text=True, check=True).stdout
            else:
                with open(path) as f:
                    text = f.read()
            problem = find_problem(m, text)
        except (OSError, subprocess.CalledProcessError) as e:
            problem = f"cannot read {name}: {getattr(e, 'stderr', '') or e}".strip()
        if problem:
            failed += 1
            print(f"  FAIL {m['id']} ({shown}:{m['line']}): {problem}")
        else:
            passed += 1
    print(f"mutate-check: {len(mutations)} entries of {shown}, each find text "
          f"where its run would plant it")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def planted_list(ksrc):
    """Where a kernel run notes each file it planted (kport/env.sh, restore_planted)."""
    return os.path.join(ksrc, ".git", "sgchain-planted")


def proc_start(pid):
    """The start time of @pid (field 22 of /proc/PID/stat): with the PID, it
    tells this run from a later process given the same PID."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(") ", 1)[1].split()[19]


def note_planted(ksrc, path, planted):
    """Add (or drop) "PID START PATH" for @path in KSRC's list of planted files.

    A run killed before it puts a file back (SIGKILL; the end of a
    session) leaves the line, and the next kernel target restores the file
    from the tree's HEAD. The list is replaced whole, never half-written.
    """
    rel = os.path.relpath(path, ksrc)
    listed = planted_list(ksrc)
    lines = []
    if os.path.exists(listed):
        with open(listed) as f:
            lines = [x for x in f.read().split("\n") if x and x.split(" ", 2)[-1] != rel]
    if planted:
        lines.append(f"{os.getpid()} {proc_start(os.getpid())} {rel}")
    if lines:
        with open(listed + ".tmp", "w") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(listed + ".tmp", listed)
    elif os.path.exists(listed):
        os.remove(listed)


def apply_and_run(m, files, halves, judge, ksrc=""):
    """Plant @m in its files, judge, put every file back: (verdict, detail).

    With @ksrc, files[0] is a file of that kernel tree: it must be as the
    tree's HEAD has it (restorable from there), and is listed as planted
    while it is.
    """
    path = files[0]
    if ksrc and subprocess.run(["git", "-C", ksrc, "--git-dir=.git", "diff", "--quiet",
                                "HEAD", "--", os.path.relpath(path, ksrc)]).returncode != 0:
        return "dirty", (f"{m['file']} has changes the tree's HEAD does not: "
                         f"'git -C {ksrc} checkout HEAD -- {os.path.relpath(path, ksrc)}'")
    with open(path) as f:
        orig = f.read()
    stale = find_problem(m, orig)
    if stale:
        return "stale", stale
    # While a file is planted, SIGTERM and SIGHUP unwind as Ctrl-C does.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop_on_signal)
    nth = int(m.get("occurrence", "1"))
    saved = {}
    for p in files + halves:
        with open(p) as f:
            saved[p] = f.read()
    try:
        if ksrc:
            note_planted(ksrc, path, True)
        with open(path, "w") as f:
            f.write(replace_nth(orig, m["find"], m["replace"], nth))
        # The halves make diff compiles hold the same text once, or not.
        for p in halves:
            if saved[p].count(m["find"]) == 1 and nth == 1:
                with open(p, "w") as f:
                    f.write(saved[p].replace(m["find"], m["replace"]))
        return judge()
    finally:
        for p, text in saved.items():
            with open(p, "w") as f:
                f.write(text)
        if ksrc:
            note_planted(ksrc, path, False)


def stop_on_signal(signum, _frame):
    """SIGTERM and SIGHUP end the run as Ctrl-C does: every file goes back."""
    raise SystemExit(128 + signum)


def main():
    global WORK
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", default=os.path.join(REPO, "tests", "mutate", "mutations"))
    ap.add_argument("--work", default=os.path.join(REPO, "build", "mutate"))
    ap.add_argument("--kernel", action="store_true",
                    help="the kernel-only mutations (a run: key), in KSRC, each judged "
                         "by the run it names")
    ap.add_argument("--timeout", type=int, default=None,
                    help="seconds for one suite or run (a hang is a kill); "
                         "default 300, 2400 with --kernel")
    ap.add_argument("--check", metavar="KFILES",
                    help="only check that every entry's find text occurs as it says, in "
                         "the checkout, KFILES/patched (6.1's files) and the kernel tree")
    ap.add_argument("only", nargs="*", help="ids (globs) to run; default all")
    args = ap.parse_args()
    if args.check:
        return check_finds(args.list, args.check, kernel_tree())
    WORK = os.path.abspath(args.work)
    timeout = args.timeout or (2400 if args.kernel else 300)
    mutations = [m for m in parse_list(args.list) if ("run" in m) == args.kernel]
    if args.only:
        mutations = [m for m in mutations if any(fnmatch.fnmatch(m["id"], g) for g in args.only)]
        if not mutations:
            sys.exit("mutate: no mutation matches " + " ".join(args.only))

    # A fresh copy of the sources; the build directory is kept between
    # runs (make rebuilds what changed), its kernel files regenerated.
    src = os.path.join(WORK, "src")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    # Copied with fresh times: an object that a run left built from a
    # mutated source is then older than its source, and rebuilt.
    for name in SOURCES:
        s = os.path.join(REPO, name)
        if os.path.isdir(s):
            shutil.copytree(s, os.path.join(src, name), copy_function=shutil.copy)
        else:
            shutil.copy(s, os.path.join(src, name))
    shutil.rmtree(os.path.join(WORK, "build", "kfiles"), ignore_errors=True)
    logs = os.path.join(WORK, "logs")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    # Short per-binary and per-side timeouts: a mutation that loops is
    # killed in seconds, not minutes.
    make = ["make", "--no-print-directory", f"-j{os.cpu_count() or 2}", "O=../build",
            "UNIT_TIMEOUT=30", "DIFF_TIMEOUT=60"]
    ksrc = kernel_tree() if args.kernel else ""

    t0 = time.time()
    print(f"mutate: {len(mutations)} {'kernel ' if args.kernel else ''}mutations from "
          f"{os.path.relpath(args.list, REPO)}; baseline first ({WORK})", flush=True)
    # The unmutated sources must pass what judges the mutations, or every
    # mutation would look killed.
    if args.kernel:
        runs = sorted({m["run"] for m in mutations})
        base = [(r, kernel_run(r, timeout, os.path.join(logs, "baseline.log"))) for r in runs]
        bad_base = [f"{r}: {d}" for r, (v, d) in base if v != "survived"]
    else:
        verdict, detail = suites(make, timeout, os.path.join(logs, "baseline.log"))
        bad_base = [] if verdict == "survived" else [detail]
    if bad_base:
        print(f"mutate: the unmutated sources do not pass: {'; '.join(bad_base)} "
              f"(log: {logs}/baseline.log)")
        print("0 passed, 1 failed")
        return 1
    print(f"mutate: baseline passes ({time.time() - t0:.0f} s)", flush=True)

    passed = failed = 0
    counts = {}
    bad = []
    try:
        for n, m in enumerate(mutations, 1):
            t1 = time.time()
            log = os.path.join(logs, m["id"].replace("/", "_") + ".log")
            files, halves = targets(m, os.path.join(WORK, "src"),
                                    os.path.join(WORK, "build", "kfiles"), ksrc)
            if args.kernel:
                judge = lambda m=m, log=log: kernel_run(m["run"], timeout, log)
            else:
                judge = lambda m=m, log=log: suites(make, timeout, log, m.get("build_error"))
            tree = ksrc if m["file"].startswith("tree:") else ""
            verdict, detail = apply_and_run(m, files, halves, judge, tree)
            equivalent = m.get("equivalent")
            if verdict == "killed" and not equivalent:
                ok, shown = True, "killed"
            elif verdict == "survived" and equivalent:
                ok, shown, detail = True, "equivalent", equivalent
            elif verdict == "killed":
                ok, shown = False, "killed, but marked equivalent"
            elif verdict == "survived":
                ok, shown, detail = False, "SURVIVED", m["bug"]
            else:
                ok, shown = False, verdict.upper()
            counts[shown] = counts.get(shown, 0) + 1
            passed += ok
            failed += not ok
            if not ok:
                bad.append(f"{m['id']}: {shown}: {detail}")
            print(f"  {'ok  ' if ok else 'FAIL'} {n:3d} {m['id']:<40} {shown:<12} "
                  f"{time.time() - t1:4.0f} s  {detail}", flush=True)
    finally:
        if args.kernel:
            # The tree's copies of the repository's files back from the
            # checkout (a core mutation went in through the scratch copy).
            subprocess.run(["kport/tree.sh"], cwd=REPO, check=False)

    minutes = (time.time() - t0) / 60
    print("mutate: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
          + f"; {minutes:.1f} min; logs in {logs}")
    if bad:
        print("failed:")
        for line in bad:
            print("  " + line)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


WORK = ""
if __name__ == "__main__":
    sys.exit(main())
