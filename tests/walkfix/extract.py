#!/usr/bin/env python3
"""Print the named functions, structs and macros of a kernel C file, as the
file has them.

A walk that the rule reports is tested by compiling the very function that
holds it over usim: this takes the definitions out of a scratch copy of the
tree's file (pristine, or with a fix applied), with a #line for each so
that compiler messages and sanitizer reports name the kernel file and line.

Usage: extract.py FILE ITEM... > OUT.c, an ITEM being a function's name,
struct:NAME or union:NAME (its definition, with the #defines inside
it) or define:NAME (the macro, with its continuation lines). Each in the
order given; one that is missing, or defined twice, is an error, unless
the item starts with "?": a helper that a fix adds, absent before it.
"""
import re
import sys


def past_match(text, i, opening, closing):
    """The index just past the bracket that closes the one at text[i]."""
    depth = 0
    while i < len(text):
        depth += {opening: 1, closing: -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            break
    return i


def definitions(text, name):
    """(start, end) of each definition of name: from the line its return
    type starts on to its closing brace."""
    found = []
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
        # A definition's parameter list is followed by "{", not ";" or ",".
        i = past_match(text, m.end() - 1, "(", ")")
        rest = text[i:]
        if not re.match(r"\s*\{", rest):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        # The return type may sit on the line above ("static int\nname(").
        head = text[line_start:m.start()]
        if not head.strip():
            line_start = text.rfind("\n", 0, line_start - 1) + 1
        found.append((line_start, past_match(text, i + rest.index("{"), "{", "}")))
    return found


def aggregate_definitions(keyword):
    """A finder of the definitions of a struct or a union."""
    def find(text, name):
        found = []
        for m in re.finditer(r"^%s %s \{" % (keyword, re.escape(name)), text, re.M):
            j = past_match(text, m.end() - 1, "{", "}")
            found.append((m.start(), text.index(";", j) + 1))
        return found
    return find


def macro_definitions(text, name):
    found = []
    for m in re.finditer(r"^#define\s+%s\b.*?(?<!\\)$" % re.escape(name), text, re.M | re.S):
        found.append((m.start(), m.end()))
    return found


def main():
    path, names = sys.argv[1], sys.argv[2:]
    text = open(path).read()
    out = []
    for item in names:
        optional = item.startswith("?")
        kind, _, name = item.lstrip("?").rpartition(":")
        finder = {"": definitions, "struct": aggregate_definitions("struct"),
                  "union": aggregate_definitions("union"),
                  "define": macro_definitions}.get(kind)
        if finder is None:
            sys.exit("%s: not a function, struct:NAME, union:NAME or define:NAME" % item)
        spans = finder(text, name)
        if optional and not spans:
            continue
        if len(spans) != 1:
            sys.exit("%s: %d definitions of %s, not one" % (path, len(spans), item))
        start, end = spans[0]
        line = text.count("\n", 0, start) + 1
        out.append('#line %d "%s"\n%s\n' % (line, path, text[start:end]))
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
