#!/usr/bin/python3
"""Move sgchain's walk helpers out of line in a patched kernel tree.

Usage: outline-helpers.py TREE

For bench/kernel-size.sh's SIZE_OUTLINE=1: the kernel text of the series
with sg_next(), sg_nents(), sg_nents_for_len(), sg_last() and
sg_init_table() out of line, as 6.1 has them, measures what inlining
them costs. Each static inline definition in
include/linux/scatterlist_chain.h becomes a prototype, and its body an
exported function at the end of lib/scatterlist.c. TREE is a git
worktree at the series' last commit: both files are made from that
commit's text, and written only when the result differs from what is
there, so a second run rebuilds nothing.
"""
import re
import subprocess
import sys

HELPERS = ["sg_next", "sg_nents", "sg_nents_for_len", "sg_last",
           "sg_init_table"]


def write_if_changed(path, text):
    with open(path) as f:
        if f.read() == text:
            return
    with open(path, "w") as f:
        f.write(text)


def committed(tree, path):
    return subprocess.run(["git", "-C", tree, "show", f"HEAD:{path}"],
                          check=True, capture_output=True, text=True).stdout


def main():
    tree = sys.argv[1]
    header = committed(tree, "include/linux/scatterlist_chain.h")
    lib = committed(tree, "lib/scatterlist.c")
    bodies = []
    for name in HELPERS:
        # A definition: its signature, then the body up to the first
        # closing brace in column 0 (kernel style).
        pattern = re.compile(r"^static inline ([^\n(]*?\b" + name +
                             r"\((?:[^)]*)\))\n(\{\n.*?^\}\n)",
                             re.MULTILINE | re.DOTALL)
        found = pattern.search(header)
        if not found:
            sys.exit(f"outline-helpers: no static inline {name}() in "
                     f"{tree}'s scatterlist_chain.h")
        signature, body = found.group(1), found.group(2)
        header = header[:found.start()] + signature + ";\n" + \
            header[found.end():]
        bodies.append(f"\n{signature}\n{body}EXPORT_SYMBOL({name});\n")
    # The header keeps sg_next()'s branch hint to itself.
    lib += "\n/* Out of line for bench/kernel-size.sh's SIZE_OUTLINE=1. */\n" \
        "#define __sg_rarely(x)\t" \
        "__builtin_expect_with_probability(!!(x), 0, 0.999)\n" + \
        "".join(bodies) + "#undef __sg_rarely\n"
    write_if_changed(f"{tree}/include/linux/scatterlist_chain.h", header)
    write_if_changed(f"{tree}/lib/scatterlist.c", lib)


if __name__ == "__main__":
    main()
