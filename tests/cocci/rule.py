"""sg_flat_walk.cocci run on one file, as the tests of tests/cocci need it.

COCCI_RULE names another copy of the rule (a planted bug, a draft).
"""
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "cocci"))
import hits  # noqa: E402

RULE = os.environ.get("COCCI_RULE", os.path.join(REPO, "cocci", "sg_flat_walk.cocci"))


def options():
    """The spatch options the rule asks for on its '// Options:' line."""
    with open(RULE) as f:
        for line in f:
            if line.startswith("// Options:"):
                return line.split(":", 1)[1].split()
    return []


def report(root, path):
    """The rule's hits on root/path, run from root so the path reads as the
    kernel's would: [(file, line, column, function, form, expression)]."""
    out = subprocess.run(["spatch", "--very-quiet", "-D", "report"] + options() +
                         ["--sp-file", RULE, path], cwd=root, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("spatch on %s exited %d: %s" % (path, out.returncode,
                                                          out.stderr.strip()[-300:]))
    return hits.parse(out.stdout.splitlines())
