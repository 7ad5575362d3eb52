#!/usr/bin/env python3
"""Hold sg_flat_walk.cocci's HEADER_FIELDS table to a tree's include/.

The rule runs without include/ and knows the struct scatterlist * fields of
structs declared there only from its table. This lists every such field in
the tree's include/ (a plain reading of struct bodies: "struct scatterlist
*a, *b;" lines) and fails on one the table lacks, which would be a walk the
rule cannot see.

Usage: header_fields.py RULE TREE
Prints a line per struct and "N passed, N failed".
"""
import ast
import os
import re
import sys


def rule_table(rule):
    text = open(rule).read()
    m = re.search(r"^HEADER_FIELDS = (\{.*?^\})", text, re.M | re.S)
    return {k: set(v) for k, v in ast.literal_eval(m.group(1)).items()}


def tree_fields(tree):
    fields = {}
    for dirpath, _, names in os.walk(os.path.join(tree, "include")):
        for name in names:
            if not name.endswith(".h"):
                continue
            path = os.path.join(dirpath, name)
            text = re.sub(r"/\*.*?\*/", "", open(path, errors="replace").read(), flags=re.S)
            for m in re.finditer(r"^struct\s+(\w+)\s*\{", text, re.M):
                depth, i = 0, m.end() - 1
                while i < len(text):
                    depth += {"{": 1, "}": -1}.get(text[i], 0)
                    i += 1
                    if depth == 0:
                        break
                body = text[m.end():i]
                for f in re.finditer(r"struct\s+scatterlist\s*\*\s*(\w+)\s*(?:,\s*\*\s*(\w+)\s*)?;",
                                     body):
                    fields.setdefault(m.group(1), {})
                    for g in f.groups():
                        if g:
                            fields[m.group(1)][g] = os.path.relpath(path, tree)
    return fields


def main():
    rule, tree = sys.argv[1:3]
    table = rule_table(rule)
    passed = failed = 0
    for struct, found in sorted(tree_fields(tree).items()):
        missing = sorted(set(found) - table.get(struct, set()))
        if missing:
            failed += 1
            print("FAIL struct %s (%s): %s not in HEADER_FIELDS" %
                  (struct, found[missing[0]], ", ".join(missing)))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
