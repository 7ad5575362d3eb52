#!/usr/bin/env python3
"""Print a file as a patch series leaves it: series_file.py PATH PATCH...

PATH must be a file the series adds: the first patch that touches it
creates it ("new file mode"), later ones may change it (a suite's Makefile
grows a line per suite), none deletes it. Every hunk is applied strictly,
at its own line numbers, with its context and removed lines checked, so a
series edited by hand fails here rather than yielding a file git would not.
"""
import re
import sys

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def fail(path, patch, why):
    sys.exit(f"{path}: {patch}: {why}")


def apply_diff(path, patch, lines, i, text):
    """Apply the diff of PATH starting at lines[i]; return (text, next i)."""
    i += 1
    new = False
    while i < len(lines) and not lines[i].startswith(("@@", "diff --git")):
        if lines[i].startswith("deleted file mode"):
            fail(path, patch, "deletes the file")
        new |= lines[i].startswith("new file mode")
        i += 1
    if new != (text is None):
        fail(path, patch, "adds a file that exists" if new else
             "changes the file before any patch adds it")
    old, out, pos = text or [], [], 0
    while i < len(lines) and lines[i].startswith("@@"):
        m = HUNK.match(lines[i])
        if not m:
            fail(path, patch, f"bad hunk header {lines[i]!r}")
        start = int(m.group(1))
        n_old = int(m.group(2) or 1)
        n_new = int(m.group(4) or 1)
        # A hunk that removes nothing from an empty range starts after line start.
        at = start if n_old == 0 else start - 1
        if at < pos or at > len(old):
            fail(path, patch, f"hunk {lines[i]!r} out of order or past the end")
        out.extend(old[pos:at])
        pos = at
        i += 1
        while n_old or n_new:
            if i >= len(lines):
                fail(path, patch, "hunk cut short")
            line = lines[i]
            i += 1
            if line.startswith("\\"):
                continue
            tag, body = line[:1], line[1:]
            if tag in (" ", "-"):
                if pos >= len(old) or old[pos] != body:
                    fail(path, patch, f"line {pos + 1} is not {body!r}")
                pos += 1
                n_old -= 1
            if tag in (" ", "+"):
                out.append(body)
                n_new -= 1
            if tag not in (" ", "-", "+"):
                fail(path, patch, f"bad hunk line {line!r}")
    out.extend(old[pos:])
    return out, i


def main(path, patches):
    text = None
    for patch in patches:
        with open(patch, encoding="utf-8") as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            if lines[i] == f"diff --git a/{path} b/{path}":
                text, i = apply_diff(path, patch, lines, i, text)
            else:
                i += 1
    if text is None:
        sys.exit(f"{path}: no patch of the series adds it")
    sys.stdout.write("".join(line + "\n" for line in text))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
