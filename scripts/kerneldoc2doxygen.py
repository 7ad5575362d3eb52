#!/usr/bin/env python3
"""Doxygen INPUT_FILTER: read kernel-doc comments as Doxygen comments.

The core is documented in kernel-doc, the kernel's format, which
scripts/kernel-doc checks; Doxygen reads the same comments through this
filter, so there is one set of comments. It rewrites, inside /** blocks:
  "name - summary"   -> "@brief summary"
  "@arg: text"       -> "@param arg text"
  "Return: text"     -> "@return text"
  "Description:", "Notes:" -> "@details", "@note"
  "@arg" within text  -> "\\p arg" (else Doxygen reads "@page" as a command)
turns the plain comment right above a #define, struct, enum, typedef or
static function, or after a #define on its line, into a Doxygen comment, so
they are documented by the comment that already explains them, and the file's opening comment into its @file
block (without one Doxygen lists none of the file's functions). Line
numbers are kept.
"""
import re
import sys

KDOC_TITLE = re.compile(r"^(\s*\*\s*)([A-Za-z_][\w]*)(\(\))?\s+-\s+(.*)$")
KDOC_PARAM = re.compile(r"^(\s*\*\s*)@(\w+|\.\.\.):\s*(.*)$")
SECTION = re.compile(r"^(\s*\*\s*)(Return|Returns|Description|Notes?|Context):\s*(.*)$")
DOXY_SECTION = {"Return": "@return", "Returns": "@return",
                "Description": "@details", "Note": "@note", "Notes": "@note",
                "Context": "@note"}


INLINE_REF = re.compile(r"(?<![\w@\\])@(\w+)")


def refs(text):
    return INLINE_REF.sub(r"\\p \1", text)


def convert(lines):
    out = []
    in_doc = first = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not in_doc and stripped.startswith("/**"):
            in_doc, first = True, True
            out.append(line)
            if stripped.endswith("*/") and len(stripped) > 4:
                in_doc = False
            continue
        if in_doc:
            if stripped.endswith("*/"):
                in_doc = False
            m = KDOC_TITLE.match(line) if first else None
            if m:
                line = f"{m.group(1)}@brief {refs(m.group(4))}\n"
                first = False
            elif (m := KDOC_PARAM.match(line)):
                line = f"{m.group(1)}@param {m.group(2)} {refs(m.group(3))}\n"
            elif (m := SECTION.match(line)):
                line = f"{m.group(1)}{DOXY_SECTION[m.group(2)]} {refs(m.group(3))}\n"
            else:
                line = refs(line)
            if stripped not in ("*", "/**"):
                first = False
            out.append(line)
            continue
        out.append(line)
    # The first comment that is not the SPDX line describes the file.
    for i, line in enumerate(out):
        s = line.strip()
        if s.startswith("/*") and "SPDX-License-Identifier" not in s:
            if not s.startswith("/**"):
                out[i] = line.replace("/*", "/** @file", 1)
            break
    # A plain block comment right above a #define/struct/enum documents it.
    for i, line in enumerate(out):
        s = line.strip()
        if s.startswith("/*") and not s.startswith("/**") and i + 1 < len(out):
            end = i
            while end < len(out) and "*/" not in out[end]:
                end += 1
            if end + 1 < len(out) and re.match(
                    r"\s*(#define\s+\w|struct\s+\w+\s*\{|enum\s+\w+\s*\{|static\s|typedef\s)",
                    out[end + 1]):
                out[i] = line.replace("/*", "/**", 1)
                for k in range(i, end + 1):
                    out[k] = refs(out[k])
        elif s.startswith("#define") and "/*" in s and "/**" not in s:
            out[i] = line.replace("/*", "/**<", 1)
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write("".join(convert(f.readlines())))


if __name__ == "__main__":
    main()
