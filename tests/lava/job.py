#!/usr/bin/python3
"""Turn one QEMU boot of the runners into a LAVA job.

usage: job.py --name NAME --suites 'A B ..' --timeout SECONDS
              --templates DIR --out DIR [--url BASE] -- QEMU ARGS...

tests/qemu/host.sh's run_guest hands over the exact command it would
run; this writes OUT/job.yaml (device type qemu: the kernel, the
initramfs and every -drive file as deploy images, the rest of the command
as the device template's context), the artifacts beside it (disks gzipped:
blank, they shrink to nothing), and OUT/device.yaml, lava-server's
qemu.jinja2 rendered for this machine as a lab would render it for a job's
context (no KVM here: TCG). Then it checks what lava-run will run: the
command the rendered template and the job make must have the given one's
options, none repeated that QEMU takes once, -device and -drive in the
same order (command_difference), or it fails naming the difference. After
the run, agree.py holds the command LAVA logged to the same rules. And the
job must pass lava-server's submission schema and lava-common's strict one.

The test action has one monitor per KTAP suite (SUITES, in boot order):
a LAVA test suite per KTAP suite, so case names are suite-qualified; and
a last one, "kernel", that fails kernel/kernel_panic if the guest panics.
Python 3 of Debian: lava-dispatcher's modules live there.
"""
import argparse
import collections
import gzip
import importlib.util
import os
import re
import shutil
import sys
import types

import jinja2
import yaml
from pexpect.utils import split_command_line

# QEMU options that take no value (the rest take exactly one), and those
# a command may give more than once.
REPEATABLE = {"-device", "-drive", "-global", "-object", "-chardev", "-netdev",
              "-serial", "-net", "-nic"}
FLAGS = {"-nographic", "-no-reboot", "-no-shutdown", "-enable-kvm", "-S"}
# Options the device template writes from the job's context.
CONTEXT_OPTIONS = {"-machine": "machine", "-cpu": "cpu", "-m": "memory"}
# What qemu.jinja2 adds that the runners do not give, and why it is
# harmless: with -nographic the monitor would share the serial line.
TEMPLATE_ADDS = {("-monitor", "none")}
# The template's NIC: a lab's device gets it (the kernels have no driver
# for it); the device rendered here drops it, as the runners boot none.
LOCAL_DROPS = re.compile(r"^-net ")
BINARY_ARCH = {
    "qemu-system-x86_64": "x86_64", "qemu-system-i386": "i386",
    "qemu-system-aarch64": "arm64", "qemu-system-ppc64": "ppc64",
    "qemu-system-sparc64": "sparc64", "qemu-system-sparc": "sparc",
    "qemu-system-alpha": "alpha", "qemu-system-hppa": "hppa",
}
# Serial lines end in \r\r\n; a kernel built with PRINTK_TIME puts its
# stamp before the indentation. A monitor starts at its suite's top-level
# "# Subtest:" line (four spaces: a case's parameters are nested deeper)
# and ends where any top-level suite starts, or where the guest stops
# (panic, reboot). The ends are zero-width lookaheads that leave the line
# for the next monitor, so a panic or a reboot ends every monitor still
# waiting and the job completes (an EOF would be an infrastructure error).
# A monitor whose suite never starts gives way, zero-width, to a later
# listed suite's start: it records nothing, and the later suites keep
# their own results.
STAMP = r"(?:\[[ 0-9.]+\] )?"
STOP = r"(?=Kernel panic - not syncing)|(?=reboot: )"
SUBTEST = r"\n" + STAMP + r"    # Subtest: "
# One KTAP result line: "ok", "not ok", or either with a "# SKIP"
# directive in any case (captured with a trailing space, which
# fixupdict maps to skip: LAVA maps the text of the result group). The
# name ends where " # " starts a directive, as ktap.py reads it.
SKIP = r"(?=\d+ [^\r\n]*? # (?i:skip))"
RESULT = (r"\n" + STAMP + r" *(?P<result>not ok " + SKIP + r"|ok " + SKIP +
          r"|not ok|ok) ?\d+ (?:- )?"
          r"(?P<test_case_id>(?:(?! # )[^\r\n])*?) *(?: # [^\r\n]*)?\r")
FIXUP = {"ok": "pass", "not ok": "fail", "ok ": "skip", "not ok ": "skip"}
PANIC = (r"(?:^|\n)(?:\[[ 0-9.]+\] )?(?P<test_case_id>Kernel panic)"
         r"(?P<result> - not syncing)")
PANIC_END = r"^(?!Kernel panic)"


def die(msg):
    sys.exit(f"[lava] job.py: {msg}")


def options(argv):
    """[(option, value or None)] of a QEMU command line without its binary."""
    out, i = [], 0
    while i < len(argv):
        opt = argv[i]
        if not opt.startswith("-"):
            die(f"not an option: {opt!r}")
        opt = "-machine" if opt == "-M" else opt
        if opt in FLAGS:
            out.append((opt, None))
            i += 1
        elif i + 1 < len(argv):
            out.append((opt, argv[i + 1]))
            i += 2
        else:
            die(f"{opt} has no value")
    return out


def label_of(path, taken):
    base = re.sub(r"\W+", "_", os.path.basename(path).split(".")[0]).lower()
    label = base if base not in ("kernel", "initrd") else "disk_" + base
    n = 2
    while label in taken and taken[label] != path:
        label, n = f"{base}{n}", n + 1
    return label


def render(templates, context):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates),
                             autoescape=False, trim_blocks=True)
    text = env.get_template("qemu.jinja2").render(**context)
    return yaml.safe_load(text)


def template_options(device):
    params = device["actions"]["boot"]["methods"]["qemu"]["parameters"]
    return params["command"], params.get("options", [])


def split(items):
    """A command as lava-run hands it to pexpect: joined by spaces, then
    split by pexpect's own rules (which keep a backslash in quotes)."""
    return options(split_command_line(" ".join(items)))


def build(args, argv):
    binary, opts = os.path.basename(argv[0]), options(argv[1:])
    if binary not in BINARY_ARCH:
        die(f"no LAVA architecture for {binary}")
    kernel = initrd = append = None
    drives, rest = {}, []
    for opt, val in opts:
        if opt == "-kernel":
            kernel = val
        elif opt == "-initrd":
            initrd = val
        elif opt == "-append":
            append = val
        elif opt == "-drive" and re.search(r"(^|,)file=", val):
            path = re.search(r"(?:^|,)file=([^,]*)", val).group(1)
            drives.setdefault(path, []).append(val)
        else:
            rest.append((opt, val))
    if not kernel:
        die("the command boots no -kernel")
    if append and '"' in append:
        die("a kernel command line with a double quote cannot be an image_arg")

    # The template's own options: let the context say what the runner
    # says wherever the template would say something else.
    context = {"arch": BINARY_ARCH[binary], "no_kvm": True}
    # A lab's device adds the template's NIC (-net nic,model=virtio), which
    # the SPARCstation's machine, with no PCI, refuses: its own lance.
    if context["arch"] == "sparc":
        context["model"] = "model=lance"
    mine = dict(rest)
    _, topts = template_options(render(args.templates, context))
    for opt, val in split(topts):
        var = CONTEXT_OPTIONS.get(opt)
        if var and mine.get(opt) != val:
            if opt not in mine:
                die(f"the device template adds {opt} {val}, the runner gives none")
            context[var] = mine[opt]
    command, topts = template_options(render(args.templates, context))
    if command != binary:
        die(f"the device template runs {command}, the runner {binary}")
    given = set(split(topts))
    extra = [(o, v) for o, v in rest if (o, v) not in given]
    if extra:
        context["extra_options"] = [o if v is None else f"{o} {v}" for o, v in extra]

    # The artifacts beside the job; disks gzipped (LAVA unpacks them).
    os.makedirs(args.out, exist_ok=True)
    images, labels = {}, {}

    def artifact(label, path, image_arg, gz=False, link=False):
        name = os.path.basename(path) + (".gz" if gz else "")
        dest = os.path.join(args.out, name)
        if os.path.lexists(dest):  # a job written here before
            os.unlink(dest)
        if gz:
            with open(path, "rb") as src, gzip.open(dest, "wb", compresslevel=1) as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        elif link:
            try:
                os.link(path, dest)
            except OSError:  # another file system
                shutil.copyfile(path, dest)
        else:
            shutil.copyfile(path, dest)
        images[label] = {"image_arg": image_arg, "url": args.url.rstrip("/") + "/" + name}
        if gz:
            images[label]["compression"] = "gz"
        labels[label] = path

    karg = "-kernel {kernel}" + (f' -append "{append}"' if append else "")
    # The kernel is copied: a later build rewrites it in place. The
    # initramfs is the boot's own, made again only with this job.
    artifact("kernel", kernel, karg)
    if initrd:
        artifact("initrd", initrd, "-initrd {initrd}", link=True)
    for path, vals in drives.items():
        label = label_of(path, labels)
        arg = " ".join("-drive " + re.sub(r"(^|,)file=[^,]*", r"\1file={%s}" % label, v)
                       for v in vals)
        artifact(label, path, arg, gz=True)

    job = {
        "job_name": f"sgchain {args.name}",
        "device_type": "qemu",
        "visibility": "public",
        "priority": "medium",
        # connection: how long a monitor waits for its suite to start
        # (30 s by default, less than a KASAN kernel takes to its first
        # suite): the watchdog's, as for the test.
        "timeouts": {"job": {"seconds": args.timeout + 600},
                     "action": {"seconds": args.timeout},
                     "connection": {"seconds": args.timeout}},
        "context": context,
        "actions": [
            {"deploy": {"to": "tmpfs", "timeout": {"minutes": 5}, "images": images}},
            # The boot action's timeout is also how long a monitor waits
            # between two lines it matches (CallQemuAction gives it to
            # the pexpect session): the watchdog's, as for the test.
            {"boot": {"method": "qemu", "media": "tmpfs",
                      "timeout": {"seconds": args.timeout}}},
            {"test": {"timeout": {"seconds": args.timeout},
                      "monitors": monitors(args.suites.split())}},
        ],
    }
    return job, context, labels


def monitors(suites):
    out = []
    for i, suite in enumerate(suites):
        if not re.fullmatch(r"[A-Za-z0-9_]+", suite):
            die(f"suite name {suite!r}: letters, digits and _ only")
        start = SUBTEST + suite + r"\r|"
        if i + 1 < len(suites):
            start += "(?=" + SUBTEST + "(?:" + "|".join(suites[i + 1:]) + r")\r)|"
        out.append({"name": suite, "start": start + STOP,
                    "end": "(?=" + SUBTEST + ")|" + STOP,
                    "pattern": RESULT, "fixupdict": dict(FIXUP)})
    out.append({"name": "kernel", "start": STOP, "end": PANIC_END,
                "pattern": PANIC, "fixupdict": {" - not syncing": "fail"}})
    return out


def command_difference(mine, lava):
    """Why the command LAVA runs (lava) is not the runner's (mine), both
    as (option, value) lists, or None: the same options, none repeated
    that QEMU does not repeat, -device and -drive in the same order."""
    # An option given twice takes its last value in QEMU, and LAVA's
    # command does not keep the runner's order: only the options QEMU
    # repeats by design may repeat.
    for name, opts in (("the runner's", mine), ("LAVA's", lava)):
        seen = collections.Counter(o for o, _ in opts if o not in REPEATABLE)
        twice = sorted(o for o, n in seen.items() if n > 1)
        if twice:
            return f"{name} command gives {', '.join(twice)} more than once"
    rest = [o for o in lava if o not in TEMPLATE_ADDS]
    missing = [o for o in mine if o not in rest or rest.remove(o)]
    if missing or rest:
        return f"runner only {missing}, LAVA only {rest}"
    # Devices and drives take bus addresses and names (vda, vdb) in order.
    for opt in ("-device", "-drive"):
        mine_seq = [v for o, v in mine if o == opt]
        lava_seq = [v for o, v in lava if o == opt]
        if mine_seq != lava_seq:
            return f"{opt} order differs: runner {mine_seq}, LAVA {lava_seq}"
    return None


def local_device(templates, context):
    """The device this machine runs the job on: the template rendered for
    the job's context, without its NIC (LOCAL_DROPS)."""
    device = render(templates, context)
    for method in ("qemu", "qemu-nfs"):
        params = device["actions"]["boot"]["methods"][method]["parameters"]
        params["options"] = [o for o in params["options"] if not LOCAL_DROPS.match(o)]
    return device


def lava_command(device, job, labels):
    """The options lava-run gives QEMU (qemu.py: the device's options and
    extra, then each image's image_arg, the images' files put in)."""
    params = device["actions"]["boot"]["methods"]["qemu"]["parameters"]
    items = list(params["options"]) + [str(x) for x in params.get("extra", [])]
    for label, image in job["actions"][0]["deploy"]["images"].items():
        items.append(image["image_arg"])
    text = " ".join(items)
    for label, path in labels.items():
        text = text.replace("{%s}" % label, path)
    return split([text])


def check_command(device, job, labels, argv):
    """The command lava-run will build against the runner's."""
    why = command_difference(options(argv[1:]), lava_command(device, job, labels))
    if why:
        die(f"LAVA's command differs from the runner's: {why}")


def by_file_name(opts):
    """The options with each file named by its last component: LAVA runs
    the runner's files from its own download directories."""
    out = []
    for o, v in opts:
        if o in ("-kernel", "-initrd"):
            v = os.path.basename(v)
        elif o == "-drive":
            v = re.sub(r"(^|,)file=([^,]*)",
                       lambda m: m.group(1) + "file=" + os.path.basename(m.group(2)), v)
        out.append((o, v))
    return out


def validate(job, server_root):
    """lava-common's strict schema (lavacli jobs validate) and
    lava-server's submission schema (lava_scheduler_app/schema.py, taken
    from the package; it reads one Django setting, given here)."""
    from lava_common import schemas
    schemas.validate(job, strict=True)
    conf = types.ModuleType("django.conf")
    conf.settings = types.SimpleNamespace(EXTRA_CONTEXT_VARIABLES=[])
    sys.modules.setdefault("django", types.ModuleType("django"))
    sys.modules["django.conf"] = conf
    path = os.path.join(server_root, "lava_scheduler_app", "schema.py")
    spec = importlib.util.spec_from_file_location("lava_submission_schema", path)
    schema = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(schema)
    schema.validate_submission(job)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--name", required=True)
    p.add_argument("--suites", required=True)
    p.add_argument("--timeout", type=int, required=True)
    p.add_argument("--templates", required=True,
                   help="lava-server's device-types directory")
    p.add_argument("--server", required=True,
                   help="lava-server's python modules (for its schema)")
    p.add_argument("--out", required=True)
    p.add_argument("--url", help="where the artifacts are served (default: file://OUT)")
    p.add_argument("argv", nargs="+")
    args = p.parse_args()
    args.out = os.path.abspath(args.out)
    args.url = args.url or "file://" + args.out
    argv = args.argv[1:] if args.argv[0] == "--" else args.argv

    job, context, labels = build(args, argv)
    device = local_device(args.templates, context)
    check_command(device, job, labels, argv)
    try:
        validate(job, args.server)
    except Exception as exc:  # voluptuous.Invalid, SubmissionException
        die(f"the job fails lava-server's schema: {exc}")
    with open(os.path.join(args.out, "job.yaml"), "w") as f:
        f.write(f"# {args.name}: written by tests/lava/job.py from the runner's QEMU command\n")
        yaml.safe_dump(job, f, sort_keys=False, width=1000)
    with open(os.path.join(args.out, "device.yaml"), "w") as f:
        f.write("# lava-server's qemu.jinja2 for this job's context, without the NIC\n")
        yaml.safe_dump(device, f, sort_keys=False, width=1000)
    print(f"[lava] {args.name}: {os.path.join(args.out, 'job.yaml')}")


if __name__ == "__main__":
    main()
