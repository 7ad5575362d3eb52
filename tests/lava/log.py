#!/usr/bin/python3
"""Split lava-run's log (a YAML flow mapping a line) into what the judges read.

usage: log.py LAVA_LOG OUTDIR

LAVA_LOG: lava-run's output, or a lab job's from lavacli jobs logs --raw.

Writes OUTDIR/console.log, the guest's serial lines in order (what
tests/qemu/ktap.py judges for the direct runs), and OUTDIR/results.yaml:
LAVA's results as a list of {definition, case, result, ...} in order,
and the QEMU command it ran (its "Boot command").
A LAVA timeout is written into the console as the QEMU runners' watchdog
line, so ktap.py reports a hang the same way for both.
"""
import json
import os
import sys

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: log.py LAVA_LOG OUTDIR")
    log, out = sys.argv[1], sys.argv[2]
    console, results, typed, boot_command = [], [], None, None
    with open(log, errors="replace") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            # lava-run writes one mapping a line; a lab's log, as
            # "lavacli jobs logs --raw" prints it, is a YAML list of them.
            if line.startswith("- {"):
                line = line[2:]
            if not line.startswith("{"):
                continue  # lava-run's own messages before the job starts
            # JSON mostly, but LAVA tags some values ("size": ! "123"):
            # YAML reads both.
            try:
                rec = json.loads(line)
            except ValueError:
                try:
                    rec = yaml.load(line, Loader=LOADER)
                except yaml.YAMLError:
                    sys.exit(f"[lava] log.py: {log}:{number}: not a log record")
            lvl, msg = rec.get("lvl"), rec.get("msg")
            # "feedback": what the guest printed between LAVA's actions
            # (after the last monitor: the reboot); but not the pty's echo
            # of what LAVA typed (finalize's "poweroff", logged once as
            # target, once as feedback).
            if lvl == "input":
                typed = str(msg).strip()
            elif lvl in ("target", "feedback"):
                # LAVA's ShellLogger writes " as \" (and drops \r and
                # ESC): the guest's line back, as a direct run keeps it.
                line = (msg if isinstance(msg, str) else str(msg)).replace('\\"', '"')
                if typed is not None and line.strip() == typed:
                    continue
                typed = None
                console.append(line)
            elif lvl == "results" and isinstance(msg, dict):
                results.append(msg)
            elif lvl == "info" and str(msg).startswith("Boot command: "):
                boot_command = str(msg)[len("Boot command: "):]
    timed_out = any(r.get("definition") == "lava" and r.get("result") == "fail"
                    and ("timed out" in str(r.get("error_msg", "")).lower()
                         or "timed out" in str(r.get("extra", "")).lower())
                    for r in results)
    with open(os.path.join(out, "console.log"), "w") as f:
        for line in console:
            f.write(line + "\n")
        if timed_out:
            f.write("[qemu] watchdog fired: the guest hung (LAVA timed out)\n")
    with open(os.path.join(out, "results.yaml"), "w") as f:
        yaml.safe_dump({"results": results, "boot_command": boot_command},
                       f, sort_keys=False)


if __name__ == "__main__":
    main()
