#!/usr/bin/env python3
"""Print a file as a patch series creates it: series_file.py PATH PATCH...

The file must be added whole by one patch ("new file mode") and touched by
no other, which is how kport/series.sh keeps sgchain's copies.
"""
import sys


def main(path, patches):
    out, adders, touchers = [], [], []
    for patch in patches:
        with open(patch, encoding="utf-8") as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            if lines[i] == f"diff --git a/{path} b/{path}":
                touchers.append(patch)
                j = i + 1
                new = False
                while j < len(lines) and not lines[j].startswith("@@"):
                    new |= lines[j].startswith("new file mode")
                    j += 1
                if new:
                    adders.append(patch)
                    j += 1
                    while j < len(lines) and not lines[j].startswith("diff --git") \
                            and lines[j] != "-- ":
                        if lines[j].startswith("+"):
                            out.append(lines[j][1:])
                        j += 1
                i = j
            else:
                i += 1
    if len(adders) != 1 or len(touchers) != 1:
        sys.exit(f"{path}: added by {len(adders)} patches, touched by {len(touchers)}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
