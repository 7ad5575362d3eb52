#!/usr/bin/env python3
"""What a series' files name exists where they name it: series_lint.py PATCH...

Without a kernel tree, for every prefix of the series (the patches up to
and including each one), and for the files the series adds:
  - a quoted #include names a file that the series adds by then, if the
    series adds it at all (a fold into an earlier patch than the header's
    would break the build of that prefix);
  - an obj-... += x.o in a Makefile the series adds or changes names an
    x.c the series adds by then, and an obj-... += dir/ a dir/Makefile,
    if the series adds them at all;
  - a Kconfig 'source "path"' the series adds names a file it adds by
    then, if it adds it at all.
And for the whole series: no file is renamed, copied or deleted, and every
Kconfig and Makefile it adds is reached from the tree, by a 'source' line
or an 'obj-... += dir/' line that the series adds.
Prints one line per problem and exits 1 if there is any.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from series_file import SeriesError, apply, parse  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
OBJ = re.compile(r"^\s*obj-\S*\s*[+:]?=\s*(.*)$")
SOURCE = re.compile(r'^\s*source\s+"([^"]+)"')


def main(patches):
    per_patch = [parse(p) for p in patches]
    added = {d.new for diffs in per_patch for d in diffs if d.added}
    problems = []
    texts = {}          # what the prefix so far has made of each added file
    added_lines = []    # (patch, path, line) of every line the series adds

    for patch, diffs in zip(patches, per_patch):
        name = os.path.basename(patch)
        for d in diffs:
            if d.moved:
                problems.append(f"{name}: {d.old} -> {d.new}: {d.moved}")
                continue
            if d.new in added:
                try:
                    texts[d.new] = apply(d, texts.get(d.new))
                except SeriesError as e:
                    problems.append(str(e))
            for _, _, body in d.hunks:
                added_lines += [(name, d.new, l[1:]) for l in body if l[:1] == "+"]
        present = set(texts)

        def needs(what, path, target):
            if target in added and target not in present:
                problems.append(f"{name}: {path} {what} {target}, which a "
                                f"later patch adds")

        for path, text in texts.items():
            base = os.path.dirname(path)
            for line in text.lines:
                m = INCLUDE.match(line)
                if m:
                    needs("includes", path, os.path.normpath(os.path.join(base, m.group(1))))
        for _, path, line in added_lines:
            base = os.path.dirname(path)
            m = OBJ.match(line) if os.path.basename(path) == "Makefile" else None
            for word in (m.group(1).split() if m else []):
                if word.endswith(".o"):
                    needs("builds", path, os.path.join(base, word[:-2] + ".c"))
                elif word.endswith("/"):
                    needs("descends into", path, os.path.join(base, word, "Makefile"))
            m = SOURCE.match(line) if "Kconfig" in os.path.basename(path) else None
            if m:
                needs("sources", path, m.group(1))

    # Every added Kconfig and Makefile reached from the tree.
    sourced = {m.group(1) for _, _, l in added_lines for m in [SOURCE.match(l)] if m}
    descended = set()
    for _, path, line in added_lines:
        m = OBJ.match(line) if os.path.basename(path) == "Makefile" else None
        for word in (m.group(1).split() if m else []):
            if word.endswith("/"):
                descended.add(os.path.join(os.path.dirname(path), word, "Makefile"))
    for path in sorted(added):
        if os.path.basename(path) == "Kconfig" and path not in sourced:
            problems.append(f"{path}: no line the series adds sources it")
        if os.path.basename(path) == "Makefile" and path not in descended:
            problems.append(f"{path}: no Makefile line the series adds descends into it")

    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
