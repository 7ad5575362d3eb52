#!/usr/bin/env bash
# One step of make check: run it (a make command line), then add its wall
# time and the CPU time it and everything it ran took (user and system) to
# TIMES, after the lines its kernel builds, trees and boots wrote there
# (scripts/times.sh), which scripts/check-times.sh adds up.
# Usage: check-step.sh TIMES STEP COMMAND...
set -uo pipefail
times=$1 step=$2
shift 2
export SGCHAIN_TIMES=$times
start=$(date +%s)
"$@"
rc=$?
# The children's user and system time, as the shell's builtin gives it
# ("1m2.345s 0m6.789s" on its second line), in whole seconds. Run in this
# shell: in a command substitution's subshell it would count none.
times > "$times.cpu"
cpu=$(sed -n 2p "$times.cpu" | awk '{
	s = 0
	for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] }
	printf "%d", s }')
rm -f "$times.cpu"
echo "step $(( $(date +%s) - start )) $step $cpu" >> "$times"
exit "$rc"
