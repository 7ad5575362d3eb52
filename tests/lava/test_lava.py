#!/usr/bin/python3
"""make lava's pieces on saved logs, without a guest or lava-run.

- The job's monitors (job.py's patterns), run over the saved consoles of
  tests/qemu/golden the way lava-dispatcher's monitor.py runs them (each
  waits for its start, then takes the earliest of end and result, the end
  on a tie, on a buffer that starts where the last match ended), on lines
  ending as the serial line sends them (\\r\\r\\n): they must record exactly
  the result lines ktap.py parses, suite by suite; a panic must end every
  monitor and be recorded as kernel/kernel_panic; a hung guest must leave
  a monitor waiting (LAVA's timeout), not end the job as if complete.
- agree.py on results taken from those monitors: it passes when they agree
  and fails, naming the case, for each way they can disagree.
- log.py on golden/lava-panic.log, a real lava-run log of a job whose init
  exits (a panic): the console without LAVA's typed "poweroff", the
  results, the job's status. golden/lava-main.log, a real passing job's,
  gives agree.py its console. Both without LAVA's debug records.
- job.py on a command for each machine family: the job passes lava-server's
  schemas, the command LAVA would run is the runner's, and a command the
  template would change is refused; and its model of lava-run's command,
  in order, against the one lava-dispatcher logged in golden/lava-main.log.
Ends with "N passed, N failed".
"""
import collections
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "qemu", "golden")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "qemu"))
import agree  # noqa: E402
import job  # noqa: E402
import ktap  # noqa: E402

MAIN = "sg_chain sg_chain_fault sg_chain_real_faults sg_chain_pages sg_chain_dma sg_chain_io".split()

passed = failed = 0


def check(ok, name, why=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"  ok    {name}")
    else:
        failed += 1
        print(f"  FAIL  {name}" + (f": {why}" if why else ""))


def serial(path):
    """A saved console as the serial line sent it: each line ends \\r\\r\\n."""
    with open(path, errors="replace") as f:
        return "".join(line.rstrip("\r\n") + "\r\r\n" for line in f)


def monitor(stream, monitors):
    """LAVA's monitor loop (lava_dispatcher/actions/test/monitor.py over
    pexpect): the results it records and whether it was left waiting."""
    results, pos = [], 0

    def first(patterns):
        buf = stream[pos:]
        best = None
        for i, p in enumerate(patterns):
            m = re.search(p, buf)
            if m and (best is None or m.start() < best[1].start()):
                best = (i, m)
        return best

    for mon in monitors:
        hit = first([mon["start"]])
        if hit is None:
            return results, f"waiting for {mon['name']}'s start"
        pos += hit[1].end()
        while True:
            hit = first([mon["end"], mon["pattern"]])
            if hit is None:
                return results, f"waiting in {mon['name']}"
            which, m = hit
            pos += m.end()
            if which == 0:
                break
            g = m.groupdict()
            result = mon["fixupdict"].get(g["result"], g["result"])
            case = re.sub(r"\W+", "_", g["test_case_id"].strip().lower())
            results.append({"definition": mon["name"], "case": case, "result": result})
    return results, None


def by_suite(results):
    out = collections.defaultdict(collections.Counter)
    for r in results:
        out[r["definition"]][(r["case"], r["result"])] += 1
    return out


def printed(path):
    lines, _ = agree.ktap_lines(path)
    return lines


def agree_run(results, console, suites, job_result="pass", reference=None, require=False):
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "results.yaml")
        data = results + [{"definition": "lava", "case": "job", "result": job_result,
                           **({"error_type": "Test", "error_msg": "timed out"}
                              if job_result != "pass" else {})}]
        with open(res, "w") as f:
            yaml.safe_dump({"results": data}, f)
        args = ["--suites", " ".join(suites)]
        if reference:
            args += ["--reference", reference]
        if require:
            args.append("--require-reference")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            agree.main(args + [res, console])
    failing = re.findall(r"^    not ok \d+ (\S+)", out.getvalue(), re.M)
    return failing, out.getvalue()


def test_monitors():
    mons = job.monitors(MAIN)
    for name in ("pass-dma-skipped.console", "fail-sg-next.console"):
        path = os.path.join(GOLDEN, name)
        results, waiting = monitor(serial(path), mons)
        got, want = by_suite(results), printed(path)
        check(waiting is None, f"{name}: every monitor ends", waiting or "")
        bad = [s for s in MAIN if got.get(s, {}) != want.get(s, {})]
        check(not bad and any(got.values()),
              f"{name}: LAVA's results are the console's result lines, per suite",
              f"differ in {bad}")
    fails = [r for r in results if r["result"] == "fail"]
    check(any(r["definition"] == "sg_chain" for r in fails),
          "fail-sg-next.console: the failed cases are LAVA failures in their suite")
    # Captured when the DMA suites ran alone.
    path = os.path.join(GOLDEN, "dma-intel-pass.console")
    suites = ["sg_chain_dma", "sg_chain_dma_io"]
    results, waiting = monitor(serial(path), job.monitors(suites))
    got, want = by_suite(results), printed(path)
    check(waiting is None and all(got.get(s, {}) == want.get(s, {}) for s in suites),
          "dma-intel-pass.console: every suite's results, skips as skip",
          waiting or "")
    check(any(r["result"] == "skip" for r in results), "a '# SKIP' line is a LAVA skip")

    path = os.path.join(GOLDEN, "panic.console")
    results, waiting = monitor(serial(path), mons)
    check(waiting is None, "panic.console: the panic ends every monitor (the job completes)",
          waiting or "")
    check({"definition": "kernel", "case": "kernel_panic", "result": "fail"} in results,
          "panic.console: recorded as kernel/kernel_panic")
    path = os.path.join(GOLDEN, "hang.console")
    results, waiting = monitor(serial(path), mons)
    check(waiting is not None, "hang.console: a monitor is left waiting (LAVA's timeout)")
    stream = serial(os.path.join(GOLDEN, "pass-dma-skipped.console")).replace("\r\r\n", "\n")
    results, waiting = monitor(stream, mons)
    check(not results, "lines ending \\n alone match nothing (the patterns need the \\r)")

    # A suite that never starts: the suites after it keep their results.
    path = os.path.join(GOLDEN, "pass-dma-skipped.console")
    want = printed(path)
    text = serial(path)
    cut = text.index("    # Subtest: sg_chain_fault\r")
    end = text.index("ok 2 sg_chain_fault\r")
    results, waiting = monitor(text[:cut] + text[end + len("ok 2 sg_chain_fault\r"):], mons)
    got = by_suite(results)
    later = ["sg_chain_real_faults", "sg_chain_pages", "sg_chain_dma", "sg_chain_io"]
    check(waiting is None and not got.get("sg_chain_fault")
          and got["sg_chain"] == want["sg_chain"]
          and all(got.get(s) == want.get(s) for s in later),
          "a missing suite records nothing, the others keep their own results",
          f"{waiting} {[s for s in later if got.get(s) != want.get(s)]}")
    # A kernel with PRINTK_TIME stamps every line.
    stamped = "".join("[   12.345678] " + l + "\r\r\n"
                      for l in text.split("\r\r\n") if l)
    results, waiting = monitor(stamped, mons)
    check(waiting is None and by_suite(results) == by_suite(monitor(text, mons)[0]),
          "printk timestamps change nothing")
    # Directives as ktap.py reads them.
    lines = ("    # Subtest: sg_chain\r\r\n    1..4\r\r\n"
             "    ok 1 a # SKIP no device\r\r\n    not ok 2 b # SKIP no device\r\r\n"
             "    ok 3 c # skip lower case\r\r\n    ok 4 d#e # TODO later\r\r\n"
             "ok 1 sg_chain\r\r\nreboot: Restarting system\r\r\n")
    results, _ = monitor("\n" + lines, job.monitors(["sg_chain"]))
    with tempfile.TemporaryDirectory() as tmp:
        console = os.path.join(tmp, "console.log")
        with open(console, "w") as f:
            f.write(lines.replace("\r", ""))
        check(by_suite(results)["sg_chain"] == printed(console)["sg_chain"],
              "SKIP in any case on ok and not ok, '#' inside a name: as ktap.py reads them",
              str(results))


def test_agree(tmp):
    # The console of a real passing job: the names of today's suites.
    path = _console_of(os.path.join(GOLDEN, "lava-main.log"), tmp)
    results, _ = monitor(serial(path), job.monitors(MAIN))
    if len(results) < 10:
        check(False, "agree: the monitors find the passing run's results",
              f"{len(results)} found")
        return
    failing, _ = agree_run(results, path, MAIN)
    check(not failing, "agree: LAVA's own results of a passing run agree", str(failing))
    failing, out = agree_run(results[:5] + results[6:], path, MAIN)
    check(failing == ["sg_chain_agrees"], "agree: a result LAVA lost fails its suite", str(failing))
    flipped = [dict(r) for r in results]
    flipped[3]["result"] = "fail"
    failing, _ = agree_run(flipped, path, MAIN)
    check("sg_chain_agrees" in failing, "agree: a verdict LAVA changed fails its suite")
    failing, _ = agree_run(results + [dict(results[0])], path, MAIN)
    check("case_names_unique" in failing, "agree: a repeated case name fails",
          str(failing))
    failing, _ = agree_run(results, path, [s for s in MAIN if s != "sg_chain_pages"])
    check("sg_chain_pages_has_a_monitor" in failing,
          "agree: a suite printed that no monitor waits for fails", str(failing))
    failing, out = agree_run(results, path, MAIN, job_result="fail")
    check("job_complete" in failing and "timed out" in out,
          "agree: an incomplete job fails, with LAVA's error")
    failing, _ = agree_run(results, path, MAIN, reference=path)
    check(not failing, "agree: counts equal to the direct run's pass")
    other = os.path.join(GOLDEN, "pass-dma-skipped.console")
    failing, out = agree_run(results, path, MAIN, reference=other)
    check(not failing and "not compared" in out,
          "agree: a direct run of another build is said, not compared")
    failing, _ = agree_run(results, path, MAIN, reference=other, require=True)
    check("counts_equal_direct_run" in failing,
          "agree: ... and fails where the direct run is required")
    with tempfile.TemporaryDirectory() as t3:
        fewer = os.path.join(t3, "console.log")
        with open(path) as src, open(fewer, "w") as dst:
            dst.writelines(l for l in src if "ok 1 sg_chain_test_chained_every_size" not in l)
        failing, _ = agree_run(results, path, MAIN, reference=fewer)
        check("counts_equal_direct_run" in failing,
              "agree: counts unlike the direct run's fail", str(failing))
    # The command LAVA logged against the runner's: the same one from
    # other directories passes; a device dropped, drives swapped fail.
    with open(os.path.join(tmp, "results.yaml")) as f:
        ran = yaml.safe_load(f)["boot_command"]
    words = [w for w in job.split_command_line(ran)]
    mon = words.index("-monitor")
    runner = words[:mon] + words[mon + 2:]
    runner = [re.sub(r"/var/lib/lava/dispatcher/tmp/[^ ,]*/", "/elsewhere/", w) for w in runner]
    drives = [i for i, w in enumerate(runner) if w == "-drive"]
    swapped = list(runner)
    swapped[drives[0] + 1], swapped[drives[1] + 1] = runner[drives[1] + 1], runner[drives[0] + 1]
    dev = runner.index("-device") if "-device" in runner else None
    for what, argv, ok in (("the same command from other directories", runner, True),
                           ("drives swapped", swapped, False),
                           ("an option the runner has and LAVA not", runner + ["-smp", "2"], False)):
        with tempfile.TemporaryDirectory() as t2:
            a = os.path.join(t2, "argv")
            with open(a, "w") as f:
                f.write("\n".join(argv) + "\n")
            res = os.path.join(t2, "results.yaml")
            with open(os.path.join(tmp, "results.yaml")) as src, open(res, "w") as dst:
                dst.write(src.read())
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                agree.main(["--suites", " ".join(MAIN), "--argv", a, res, path])
            bad = "not ok" in out.getvalue() and "boot_command_is_the_runners" in \
                "".join(l for l in out.getvalue().splitlines(True) if "not ok" in l)
        check(bad != ok, f"agree: LAVA's boot command against the runner's: {what}")
    results, _ = monitor(serial(os.path.join(GOLDEN, "panic.console")), job.monitors(MAIN))
    failing, _ = agree_run([r for r in results if r["definition"] != "kernel"],
                           os.path.join(GOLDEN, "panic.console"), MAIN)
    check("kernel_agrees" in failing, "agree: a panic LAVA did not record fails")


def test_log():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(HERE, "log.py"),
                        os.path.join(GOLDEN, "lava-panic.log"), tmp], check=True)
        with open(os.path.join(tmp, "console.log")) as f:
            lines = f.read().splitlines()
        with open(os.path.join(tmp, "results.yaml")) as f:
            data = yaml.safe_load(f)
    check(any("Linux version" in l for l in lines)
          and any(l.startswith("Kernel panic - not syncing") for l in lines),
          "log: the guest's lines, boot to panic")
    check("poweroff" not in lines, "log: not the pty's echo of LAVA's poweroff")
    cases = {(r["definition"], r["case"]): r["result"] for r in data["results"]}
    check(cases.get(("kernel", "kernel_panic")) == "fail" and
          cases.get(("lava", "job")) == "pass",
          "log: the panic as a failed case, the job complete")
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "lava.log")
        with open(log, "w") as f:
            # As lava-run writes it: the quote escaped by LAVA, then for JSON.
            f.write(r'{"lvl": "target", "msg": "Kernel command line: a=\\\"b c\\\""}' + "\n")
            f.write('{"lvl": "results", "msg": {"definition": "x", "case": "y", '
                    '"result": "pass", "extra": {"test_case_id": "timed out twice"}}}\n')
        subprocess.run([sys.executable, os.path.join(HERE, "log.py"), log, tmp], check=True)
        with open(os.path.join(tmp, "console.log")) as f:
            text = f.read()
    check(text == 'Kernel command line: a="b c"\n',
          "log: the guest's quotes as it printed them, no watchdog for a passing case",
          repr(text))
    # The same log as a lab serves it: "lavacli jobs logs --raw" prints
    # each record as "- " and a flow mapping with every string quoted
    # (lavacli/commands/jobs.py, print_logs).
    with tempfile.TemporaryDirectory() as tmp:
        direct = _console_of(os.path.join(GOLDEN, "lava-panic.log"), tmp)
        with open(direct) as f:
            want = f.read()
        raw = os.path.join(tmp, "raw.log")
        with open(os.path.join(GOLDEN, "lava-panic.log")) as src, open(raw, "w") as dst:
            for line in src:
                if line.startswith("{"):
                    rec = yaml.safe_load(line)
                    dst.write("- " + yaml.dump(rec, default_flow_style=True, default_style='"',
                                               width=10 ** 6)[:-1] + "\n")
        os.mkdir(os.path.join(tmp, "raw"))
        got = open(_console_of(raw, os.path.join(tmp, "raw"))).read()
    check(got == want and "Kernel panic" in got,
          "log: a lab's log (lavacli jobs logs --raw) gives the same console")
    with tempfile.TemporaryDirectory() as tmp:
        console = _console_of(os.path.join(GOLDEN, "lava-panic.log"), tmp)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = ktap.main(["--expect", "sg_chain_io", "--require-line",
                            "sgchain-init: done", console])
    check(rc != 0 and "Kernel panic" in out.getvalue(),
          "log: the runner's judge fails the panic on LAVA's console")


def _console_of(log, tmp):
    """log.py on LAVA_LOG into TMP; the path of the console it wrote."""
    subprocess.run([sys.executable, os.path.join(HERE, "log.py"), log, tmp], check=True)
    return os.path.join(tmp, "console.log")


def _boot_command(log, tmp):
    _console_of(log, tmp)
    with open(os.path.join(tmp, "results.yaml")) as f:
        return yaml.safe_load(f)["boot_command"]


def fake_args(tmp, templates, server):
    class A:
        pass
    a = A()
    a.name, a.suites, a.timeout = "test", "sg_chain", 600
    a.templates, a.server, a.out = templates, server, os.path.join(tmp, "job")
    a.url = "file://" + a.out
    return a


def test_job(templates, server):
    with tempfile.TemporaryDirectory() as tmp:
        for f in ("Image", "initramfs.cpio.gz", "d0.img"):
            with open(os.path.join(tmp, f), "wb") as fp:
                fp.write(b"\0" * 4096)
        img = os.path.join(tmp, "d0.img")
        commands = {
            "x86_64 pc, one file opened twice": [
                "qemu-system-x86_64", "-machine", "pc", "-accel", "tcg", "-m", "1G",
                "-nographic", "-no-reboot", "-kernel", os.path.join(tmp, "Image"),
                "-initrd", os.path.join(tmp, "initramfs.cpio.gz"),
                "-append", "console=ttyS0 kunit.filter_glob=sg_chain*",
                "-drive", f"file={img},if=virtio,format=raw,file.locking=off",
                "-drive", f"file={img},if=virtio,format=raw,readonly=on,file.locking=off"],
            "arm64 virt, the template's machine and cpu from the context": [
                "qemu-system-aarch64", "-M", "virt,iommu=smmuv3", "-cpu", "cortex-a57",
                "-m", "2G", "-accel", "tcg", "-nographic", "-no-reboot",
                "-device", "virtio-scsi-pci,id=c0", "-device", "scsi-hd,drive=disk0,bus=c0.0",
                "-drive", f"file={img},if=none,id=disk0,format=raw",
                "-kernel", os.path.join(tmp, "Image"), "-append", "console=ttyAMA0"],
            "i386 q35, a cpu the template names otherwise": [
                "qemu-system-i386", "-M", "q35", "-cpu", "qemu32,pse36=on", "-m", "3G",
                "-accel", "tcg", "-nographic", "-no-reboot",
                "-kernel", os.path.join(tmp, "Image")],
        }
        for what, argv in commands.items():
            args = fake_args(tmp, templates, server)
            try:
                built, context, labels = job.build(args, argv)
                job.check_command(job.local_device(templates, context), built, labels, argv)
                job.validate(built, server)
                ok, why = True, ""
            except SystemExit as e:
                ok, why = False, str(e)
            check(ok, f"job: {what}: LAVA's command is the runner's, schemas pass", why)
        # job.py's model of the command lava-run builds, against the one
        # lava-dispatcher really built and logged (golden/lava-main.log):
        # the same options in the same order, files by name.
        with tempfile.TemporaryDirectory() as t2:
            ran = _boot_command(os.path.join(GOLDEN, "lava-main.log"), t2)
        words = job.split_command_line(ran)
        mon = words.index("-monitor")
        runner = words[:mon] + words[mon + 2:]
        for i, w in enumerate(runner):
            for f in ("bzImage", "initramfs.cpio.gz", "virtio.img"):
                runner[i] = re.sub(r"/var/lib/lava/[^ ,]*/" + re.escape(f), os.path.join(tmp, f), runner[i])
            if os.path.join(tmp, "") in runner[i]:
                name = re.search(re.escape(tmp) + r"/([^ ,]+)", runner[i]).group(1)
                with open(os.path.join(tmp, name), "wb") as fp:
                    fp.write(b"\0" * 4096)
        built, context, labels = job.build(fake_args(tmp, templates, server), runner)
        predicted = job.lava_command(job.local_device(templates, context), built, labels)
        logged = job.options(words[1:])
        check(job.by_file_name(predicted) == job.by_file_name(logged),
              "job: the command it expects lava-run to build is the one lava-dispatcher logged",
              f"{job.by_file_name(predicted)} != {job.by_file_name(logged)}")
        # The device adds an option the runner does not give: refused.
        argv = commands["x86_64 pc, one file opened twice"]
        built, context, labels = job.build(fake_args(tmp, templates, server), argv)
        device = job.render(templates, context)
        try:
            job.check_command(device, built, labels, argv)  # the NIC left in
            check(False, "job: a command the template changes (its NIC) is refused")
        except SystemExit as e:
            check("-net" in str(e), "job: a command the template changes (its NIC) is refused",
                  str(e))
        for what, bad in (
                ("an option given twice", argv + ["-m", "2G"]),
                ("drives in another order than LAVA's images give", argv[:-4] + [
                    "-drive", f"file={img},if=virtio,format=raw,file.locking=off",
                    "-drive", f"file={os.path.join(tmp, 'Image')},if=virtio,format=raw",
                    "-drive", f"file={img},if=virtio,format=raw,readonly=on,file.locking=off"])):
            try:
                b, c, l = job.build(fake_args(tmp, templates, server), bad)
                job.check_command(job.local_device(templates, c), b, l, bad)
                check(False, f"job: {what} is refused")
            except SystemExit as e:
                check(True, f"job: {what} is refused")
        sparc = ["qemu-system-sparc", "-M", "SS-5", "-m", "256", "-accel", "tcg",
                 "-nographic", "-no-reboot", "-kernel", os.path.join(tmp, "Image")]
        b, c, l = job.build(fake_args(tmp, templates, server), sparc)
        nic = [o for o in job.template_options(job.render(templates, c))[1] if o.startswith("-net nic")]
        check(nic and "model=lance" in nic[0],
              "job: a lab's SPARCstation gets the template's NIC as its own lance", str(nic))
        built["actions"][2]["test"]["monitors"][0]["bogus"] = 1
        try:
            job.validate(built, server)
            check(False, "job: a job the schema refuses is refused")
        except Exception:  # voluptuous.Invalid
            check(True, "job: a job the schema refuses is refused")


def main():
    sys.path.insert(0, HERE)
    env = subprocess.run(["bash", "-c", f"source {HERE}/lava-env.sh && "
                          "echo \"$LAVA_TEMPLATES\" && echo \"$LAVA_SERVER_MODULES\""],
                         capture_output=True, text=True)
    if env.returncode:
        print(env.stderr.strip())
        print("0 passed, 1 failed")
        return 1
    templates, server = env.stdout.split()
    test_monitors()
    with tempfile.TemporaryDirectory() as tmp:
        test_agree(tmp)
    test_log()
    test_job(templates, server)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
