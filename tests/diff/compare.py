#!/usr/bin/env python3
"""Pair the two sides of the differential suite and judge every difference.

    compare.py --declared FILE --build chain|nochain K61_OUT SGCHAIN_OUT
    compare.py --declared FILE --cover-letter      (the rows' why lines)

K61_OUT and SGCHAIN_OUT are the outputs of diff-k61 and diff-sgchain (one
line per input: NAME, CLASS, DETAIL, tab-separated). An input agrees when
both lines are equal. It may differ only as a row of FILE says (its inputs
globs, its build, both outcome classes). Prints TAP: one test per input
group (the first two parts of a name) and one per row that applies to this
build (it must show at least once), then the per-class counts.
"""
import argparse
import collections
import fnmatch
import re
import sys
import textwrap

FAULT_RUN = re.compile(r"/[a-z_]+@\d+$")


def read_rows(path):
    rows, row = [], None
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            key, sep, value = line.partition(":")
            if not sep:
                sys.exit(f"{path}:{lineno}: not 'key: value'")
            key, value = key.strip(), value.strip()
            if key == "difference":
                row = {"name": value, "build": "both", "line": lineno}
                rows.append(row)
            elif row is None:
                sys.exit(f"{path}:{lineno}: '{key}' before any 'difference:'")
            elif key in ("inputs", "linux-6.1", "sgchain", "why", "build"):
                row[key] = value
            else:
                sys.exit(f"{path}:{lineno}: unknown key '{key}'")
    for row in rows:
        for key in ("inputs", "linux-6.1", "sgchain", "why"):
            if key not in row:
                sys.exit(f"{path}:{row['line']}: row {row['name']} has no '{key}'")
        if row["build"] not in ("chain", "nochain", "both"):
            sys.exit(f"{path}:{row['line']}: build must be chain, nochain or both")
        row["globs"] = row["inputs"].split()
        row["k61"] = set(row["linux-6.1"].split(" or "))
        row["sg"] = set(row["sgchain"].split(" or "))
    return rows


def read_side(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            name, cls, detail = line.rstrip("\n").split("\t", 2)
            out[name] = (cls, detail)
    return out


def base_of(name):
    return FAULT_RUN.sub("", name)


def rows_for(rows, name):
    names = (name, base_of(name))
    return [r for r in rows
            if any(fnmatch.fnmatchcase(n, g) for g in r["globs"] for n in names)]


def first_difference(a, b, width=160):
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, i - 40)
    return a[start:start + width], b[start:start + width]


def judge(rows, k61, sg):
    """Each input: None if it agrees, else (row or None, reason)."""
    verdicts = {}
    for name in sorted(set(k61) | set(sg)):
        a, b = k61.get(name), sg.get(name)
        if a == b:
            continue
        if a is None or b is None:
            # A fault run that one side never reached: its input decides.
            base = base_of(name)
            v = verdicts.get(base)
            if base != name and v and v[0]:
                verdicts[name] = (v[0], "follows " + base)
            else:
                verdicts[name] = (None, "only in " + ("sgchain" if a is None else "linux-6.1"))
            continue
        matching = rows_for(rows, name)
        fit = [r for r in matching if a[0] in r["k61"] and b[0] in r["sg"]]
        if fit:
            verdicts[name] = (fit[0], "declared")
        elif matching:
            verdicts[name] = (None, f"linux-6.1 {a[0]}, sgchain {b[0]}: not the "
                              f"classes row {matching[0]['name']} declares")
        else:
            verdicts[name] = (None, f"linux-6.1 {a[0]}, sgchain {b[0]}")
    return verdicts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--declared", required=True)
    ap.add_argument("--build", choices=("chain", "nochain"))
    ap.add_argument("--cover-letter", action="store_true")
    ap.add_argument("outputs", nargs="*")
    args = ap.parse_args()
    rows = read_rows(args.declared)
    if args.cover_letter:
        for r in rows:
            print(textwrap.fill(r["why"], width=72, initial_indent="- ",
                                subsequent_indent="  "))
        return 0
    if not args.build or len(args.outputs) != 2:
        ap.error("--build and two outputs are needed")
    k61, sg = read_side(args.outputs[0]), read_side(args.outputs[1])
    rows = [r for r in rows if r["build"] in (args.build, "both")]
    verdicts = judge(rows, k61, sg)

    groups = collections.OrderedDict()
    for name in sorted(set(k61) | set(sg)):
        groups.setdefault("/".join(name.split("/")[:2]), []).append(name)
    seen = collections.Counter(v[0]["name"] for v in verdicts.values() if v[0])
    # Declared inputs whose outcome classes agree: only details differ.
    same = collections.Counter(
        v[0]["name"] for n, v in verdicts.items()
        if v[0] and n in k61 and n in sg and k61[n][0] == sg[n][0])

    tests = []
    for group, names in groups.items():
        bad = [n for n in names if n in verdicts and not verdicts[n][0]]
        declared = sum(1 for n in names if n in verdicts and verdicts[n][0])
        desc = f"{group}: {len(names)} inputs, {declared} declared differences"
        if not bad:
            tests.append((True, desc, []))
            continue
        diag = []
        for n in bad[:4]:
            diag.append(f"{n}: {verdicts[n][1]}")
            if n in k61 and n in sg:
                a, b = first_difference(k61[n][1], sg[n][1])
                diag.append(f"  linux-6.1: ...{a}")
                diag.append(f"  sgchain:   ...{b}")
        tests.append((False, f"{group}: {len(bad)} undeclared differences, "
                      f"first {bad[0]} ({verdicts[bad[0]][1]})", diag))
    for r in rows:
        # An input a row names exactly (no wildcard) must itself differ as declared.
        named = [g for g in r["globs"] if not any(c in g for c in "*?[") and g in k61]
        quiet = [g for g in named if not (g in verdicts and verdicts[g][0] is r)]
        diag = [f"no input differs as row '{r['name']}' says: remove or correct it"] \
            if not seen[r["name"]] else []
        diag += [f"{g}: named by row '{r['name']}' but does not differ as it says"
                 for g in quiet]
        tests.append((seen[r["name"]] > 0 and not quiet,
                      f"declared difference {r['name']} shows in {seen[r['name']]} inputs"
                      + (f" ({same[r['name']]} with the same outcome, other details)"
                         if same[r["name"]] else ""), diag))

    print(f"1..{len(tests)}")
    for i, (ok, desc, diag) in enumerate(tests, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {desc}")
        for d in diag:
            print(f"# {d}")
    classes = collections.Counter(c for c, _ in k61.values())
    print(f"# {args.build}: {len(set(k61) | set(sg))} inputs, "
          f"{len(verdicts)} differ, all others identical; linux-6.1 outcomes: "
          + ", ".join(f"{c} {n}" for c, n in sorted(classes.items())))
    return 0 if all(ok for ok, _, _ in tests) else 1


if __name__ == "__main__":
    sys.exit(main())
