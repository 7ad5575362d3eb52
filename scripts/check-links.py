#!/usr/bin/env python3
"""Every relative link of the given Markdown files resolves: check-links.py FILE...

A link to a file or folder must name one that exists in the repository; a
link with #anchor must name a heading of its target, as GitHub makes
anchors (lower case, punctuation dropped, spaces to hyphens). Links with a
scheme (https:, mailto:) are left alone: there is no network here.
Ends with "N passed, N failed", one result per link.
"""
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.*?) *#*$")
FENCE = re.compile(r"^(```|~~~)")


def anchors(path):
    """The anchors GitHub gives the headings of a Markdown file."""
    found, fenced = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else HEADING.match(line.rstrip("\n"))
            if m:
                text = re.sub(r"[`*]", "", m.group(1)).lower()
                text = re.sub(r"[^\w\- ]", "", text)
                found.add(text.replace(" ", "-"))
    return found


def links(path):
    """(line number, target) of every link outside code blocks and spans."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                yield number, m.group(1) or m.group(2)


def main(files):
    passed = failed = 0
    for path in files:
        base = os.path.dirname(path)
        for number, target in links(path):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            where, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(base, where)) if where else path
            problem = None
            if not os.path.exists(dest):
                problem = f"{where} does not exist"
            elif anchor and (os.path.isdir(dest) or not dest.endswith(".md")):
                problem = f"#{anchor} on a target that is not a Markdown file"
            elif anchor and anchor not in anchors(dest):
                problem = f"{dest} has no heading #{anchor}"
            if problem:
                failed += 1
                print(f"  FAIL  {path}:{number}: ({target}) {problem}")
            else:
                passed += 1
    print(f"links: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
