#!/usr/bin/env python3
"""Hold the hits of sg_flat_walk.cocci to the committed triage table.

A walk is one expression stepped in one form in one function of one file;
the rule reports it at one or more lines. cocci/triage.tsv has a row per
walk: where it is, the lines it has in each kernel ("-" where it is not
there), its class and the evidence for it. Rows of walks found in 6.12 come
first, then the ones only 6.1 has.

Every walk a scan reports must have a row with exactly its lines, and every
row must match a walk of each kernel it names: a new kernel's hits are
triaged, or the check fails. Prints the hits as one table, the count of
each class and the precision (reachable walks over all), then
"N passed, N failed".

Usage: triage.py --table TSV [--markdown OUT] [--missing | --update] [--passed N --failed N]
       VERSION=HITS_TSV...
--missing prints a row for each walk the table lacks (class "?") instead;
--update rewrites the table's line columns from the scans and sorts its
rows (the first kernel's walks first), leaving classes and evidence alone.
"""
import argparse
import csv
import sys

CLASSES = {
    "flat": "safe: the list is the code's own flat array",
    "no-chain": "safe: built only where the architecture cannot chain",
    "chain-aware": "safe: the walk follows or stops at links itself",
    "reachable": "a chained list reaches it",
    "unknown": "not settled",
}
COLUMNS = ["file", "function", "form", "expression"]


def read_tsv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def walks_of(hits):
    """{(file, function, form, expression): [line, ...]} of one scan."""
    walks = {}
    for h in hits:
        key = tuple(h[c] for c in COLUMNS)
        walks.setdefault(key, set()).add(int(h["line"]))
    return {k: sorted(v) for k, v in walks.items()}


def lines_text(lines):
    return ",".join(str(n) for n in lines) if lines else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--markdown")
    ap.add_argument("--missing", action="store_true")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--passed", type=int, default=0,
                    help="checks of the caller's to count in the summary")
    ap.add_argument("--failed", type=int, default=0)
    ap.add_argument("scans", nargs="+", metavar="VERSION=HITS_TSV")
    args = ap.parse_args()

    scans = {}
    for arg in args.scans:
        version, _, path = arg.partition("=")
        scans[version] = walks_of(read_tsv(path))
    versions = list(scans)
    rows = read_tsv(args.table)
    by_key = {}
    problems = []
    for number, row in enumerate(rows, 2):
        key = tuple(row[c] for c in COLUMNS)
        where = "%s:%d" % (args.table, number)
        if key in by_key:
            problems.append("%s: a second row for %s" % (where, " ".join(key)))
        by_key[key] = row
        if row["class"] not in CLASSES:
            problems.append("%s: class %r is none of %s" % (where, row["class"],
                                                             ", ".join(CLASSES)))
        if not row["evidence"].strip():
            problems.append("%s: no evidence for the class" % where)

    if args.missing:
        print("\t".join(COLUMNS + versions + ["class", "evidence"]))
        for version in versions:
            for key in sorted(scans[version]):
                if key in by_key:
                    continue
                cells = [lines_text(scans[v].get(key)) for v in versions]
                print("\t".join(list(key) + cells + ["?", ""]))
                by_key[key] = {}
        return 0

    if args.update:
        for row in rows:
            key = tuple(row[c] for c in COLUMNS)
            for version in versions:
                row[version] = lines_text(scans[version].get(key))
        rows.sort(key=lambda r: (r[versions[0]] == "-", r["file"], r["function"],
                                 r["form"], r["expression"]))
        with open(args.table, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS + versions + ["class", "evidence"],
                               delimiter="\t", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        return 0

    # Order: the first kernel's walks, then the walks only the others have.
    seen_later = False
    for number, row in enumerate(rows, 2):
        if row.get(versions[0], "-") == "-":
            seen_later = True
        elif seen_later:
            problems.append("%s:%d: a walk of %s after the rows of walks only older "
                            "kernels have" % (args.table, number, versions[0]))

    passed = 0
    for version in versions:
        for key, lines in sorted(scans[version].items()):
            row = by_key.get(key)
            if row is None:
                problems.append("Linux %s: %s:%s() %s of %s (lines %s) has no row" %
                                (version, key[0], key[1], key[2], key[3],
                                 lines_text(lines)))
            elif row.get(version, "-") != lines_text(lines):
                problems.append("Linux %s: %s:%s() %s of %s is at lines %s, the row "
                                "says %s" % (version, key[0], key[1], key[2], key[3],
                                             lines_text(lines), row.get(version, "-")))
            else:
                passed += 1
        for key, row in by_key.items():
            if row.get(version, "-") != "-" and key not in scans[version]:
                problems.append("Linux %s: the row for %s:%s() %s of %s matches no hit" %
                                (version, key[0], key[1], key[2], key[3]))

    report(rows, versions, scans, args.markdown)
    for p in problems:
        print("FAIL " + p)
    print("%d passed, %d failed" % (passed + args.passed, len(problems) + args.failed))
    return 1 if problems or args.failed else 0


def report(rows, versions, scans, markdown):
    """The hits as one table, and the figures of each kernel."""
    table = []
    for row in rows:
        key = tuple(row[c] for c in COLUMNS)
        for version in versions:
            if key in scans[version] and (version == versions[0] or
                                          key not in scans[versions[0]]):
                table.append((version, row["file"], lines_text(scans[version][key]),
                              row["function"], row["form"], row["expression"],
                              row["class"]))
    head = ("kernel", "file", "lines", "function", "form", "walked", "class")
    widths = [max(len(str(r[i])) for r in table + [head]) for i in range(len(head))]
    for r in [head] + table:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    print()
    for version in versions:
        keys = set(scans[version])
        counts = {c: 0 for c in CLASSES}
        line_counts = {c: 0 for c in CLASSES}
        for row in rows:
            key = tuple(row[c] for c in COLUMNS)
            if key in keys and row["class"] in counts:
                counts[row["class"]] += 1
                line_counts[row["class"]] += len(scans[version][key])
        walks = len(keys)
        lines = sum(len(v) for v in scans[version].values())
        print("Linux %s: %d hits (lines) in %d walks: %s" % (
            version, lines, walks, ", ".join("%s %d" % (c, counts[c]) for c in CLASSES)))
        if walks:
            print("Linux %s: precision %.2f by walks (%d reachable of %d), %.2f by lines "
                  "(%d of %d)" % (version, counts["reachable"] / walks, counts["reachable"],
                                  walks, line_counts["reachable"] / lines,
                                  line_counts["reachable"], lines))
    if markdown:
        with open(markdown, "w") as f:
            f.write("| " + " | ".join(head) + " |\n")
            f.write("|" + "---|" * len(head) + "\n")
            for r in table:
                f.write("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |\n")


if __name__ == "__main__":
    sys.exit(main())
