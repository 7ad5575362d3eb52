#!/usr/bin/env python3
"""Print a file as a patch series leaves it: series_file.py PATH PATCH...

PATH must be a file the series adds: the first patch that touches it
creates it ("new file mode"), later ones may change it (a suite's Makefile
grows a line per suite). A rename, copy, deletion, mode change or binary
patch of it is refused, as is a diff line whose paths it cannot read.
Every hunk is applied as git applies it, strictly: at its own line
numbers, with its context and removed lines checked, a hunk without
trailing context only at the end of the file, and "\\ No newline at end of
file" kept. A series edited by hand fails here rather than yielding a
file that git would not. kport/series_lint.py uses the same code on
every prefix of a series.
"""
import re
import sys

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
DIFF = re.compile(r"^diff --git a/(\S+) b/(\S+)$")


class SeriesError(Exception):
    pass


class FileDiff:
    """One file's part of one patch: its paths, header lines and hunks."""

    def __init__(self, patch, old, new):
        self.patch, self.old, self.new = patch, old, new
        self.header, self.hunks = [], []

    @property
    def added(self):
        return any(h.startswith("new file mode") for h in self.header)

    @property
    def moved(self):
        """Why this is not a text change of one file in place, if it is not:
        a rename, copy or deletion, a mode change or a binary patch."""
        for h in self.header:
            if h.startswith(("rename from", "copy from", "deleted file mode",
                             "old mode", "GIT binary patch", "Binary files")):
                return h
        return "renamed" if self.old != self.new else None


def parse(patch):
    """The FileDiffs of one patch file, in order."""
    # newline="": a carriage return in a file is its content, kept.
    with open(patch, encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
    diffs, i = [], 0
    while i < len(lines):
        m = DIFF.match(lines[i])
        if not m:
            if lines[i].startswith("diff --git "):
                # A quoted path or one with a space: not ours to guess.
                raise SeriesError(f"{patch}: cannot read {lines[i]!r}")
            i += 1
            continue
        d = FileDiff(patch, m.group(1), m.group(2))
        i += 1
        while i < len(lines) and not lines[i].startswith(("@@", "diff --git")):
            d.header.append(lines[i])
            i += 1
        # A binary patch has no hunks: its "GIT binary patch" line and data
        # land in the header, where FileDiff.moved finds them.
        while i < len(lines) and lines[i].startswith("@@"):
            m = HUNK.match(lines[i])
            if not m:
                raise SeriesError(f"{patch}: bad hunk header {lines[i]!r}")
            n_old, n_new = int(m.group(2) or 1), int(m.group(4) or 1)
            body, i = [], i + 1
            while n_old or n_new or (i < len(lines) and lines[i].startswith("\\")):
                if i >= len(lines):
                    raise SeriesError(f"{patch}: hunk cut short")
                # An empty line is an empty context line whose space a
                # mailer dropped; git takes it so.
                line = lines[i] or " "
                i += 1
                body.append(line)
                if line[:1] in (" ", "-"):
                    n_old -= 1
                if line[:1] in (" ", "+"):
                    n_new -= 1
                if line[:1] not in (" ", "-", "+", "\\"):
                    raise SeriesError(f"{patch}: bad hunk line {line!r}")
            d.hunks.append((int(m.group(1)), int(m.group(2) or 1), body))
        diffs.append(d)
    return diffs


class Text:
    """A file's lines, and whether its last line ends in a newline."""

    def __init__(self, lines=(), eol=True):
        self.lines, self.eol = list(lines), eol

    def __str__(self):
        text = "\n".join(self.lines)
        return text + "\n" if self.lines and self.eol else text


def apply(d, text):
    """TEXT (None: absent) after the FileDiff D; raises SeriesError."""
    where = f"{d.new}: {d.patch}"
    if d.moved:
        raise SeriesError(f"{where}: {d.moved}: a copied file is only added and changed")
    if d.added != (text is None):
        raise SeriesError(f"{where}: " + ("adds a file that exists" if d.added else
                                          "changes the file before any patch adds it"))
    old = text or Text()
    out, pos, eol = [], 0, old.eol
    for start, n_old, body in d.hunks:
        at = start if n_old == 0 else start - 1
        if at < pos or at > len(old.lines):
            raise SeriesError(f"{where}: hunk at line {start} out of order or past the end")
        out.extend(old.lines[pos:at])
        pos = at
        trailing = 0
        new_eol = True
        for j, line in enumerate(body):
            tag, rest = line[:1], line[1:]
            if tag == "\\":
                # The line before it has no newline: the new file's last
                # line if that was a context or added line.
                if body[j - 1][:1] in (" ", "+"):
                    new_eol = False
                continue
            if tag in (" ", "-"):
                if pos >= len(old.lines) or old.lines[pos] != rest:
                    raise SeriesError(f"{where}: line {pos + 1} is not {rest!r}")
                pos += 1
            if tag in (" ", "+"):
                out.append(rest)
            trailing = trailing + 1 if tag == " " else 0
        if trailing == 0 and pos != len(old.lines):
            # git anchors a hunk without trailing context at the end.
            raise SeriesError(f"{where}: hunk at line {start} has no trailing "
                              f"context but does not end the file")
        if pos == len(old.lines):
            eol = new_eol       # this hunk wrote the file's end
    out.extend(old.lines[pos:])
    return Text(out, eol)


def replay(path, patches):
    """PATH's Text after PATCHES, or None if they never add it."""
    text = None
    for patch in patches:
        for d in parse(patch):
            if path in (d.old, d.new):
                text = apply(d, text)
    return text


def main(path, patches):
    try:
        text = replay(path, patches)
    except SeriesError as e:
        sys.exit(str(e))
    if text is None:
        sys.exit(f"{path}: no patch of the series adds it")
    sys.stdout.write(str(text))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
