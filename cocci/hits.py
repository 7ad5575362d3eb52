#!/usr/bin/env python3
"""Turn the report of sg_flat_walk.cocci into one table of walks.

Reads coccicheck's output (file:line:col-col: WARNING: fn(): expr ... [form]),
writes a TSV of hits, one a line: file, line, column, function, form,
expression. Lines that are not reports of the rule are ignored here; the
caller checks coccicheck's exit status.
"""
import re
import sys

REPORT = re.compile(r"^(?:\./)?(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+)-\d+: "
                    r"WARNING: (?P<function>.*?)\(\): (?P<expr>.+) "
                    r"(?:advanced|offset|indexed) by .*\[(?P<form>\w+)\]$")


def parse(lines):
    hits = set()
    for line in lines:
        m = REPORT.match(line.rstrip("\n"))
        if m:
            hits.add((m["file"], int(m["line"]), int(m["col"]), m["function"],
                      m["form"], m["expr"]))
    return sorted(hits)


def main():
    hits = parse(sys.stdin)
    print("file\tline\tcolumn\tfunction\tform\texpression")
    for h in hits:
        print("\t".join(str(x) for x in h))


if __name__ == "__main__":
    main()
