#!/usr/bin/env bash
# One step of make check: run it (a make command line), then add its wall
# time to TIMES after the lines its kernel builds, trees and boots wrote
# there (scripts/times.sh), which scripts/check-times.sh adds up.
# Usage: check-step.sh TIMES STEP COMMAND...
set -uo pipefail
times=$1 step=$2
shift 2
export SGCHAIN_TIMES=$times
start=$(date +%s)
"$@"
rc=$?
echo "step $(( $(date +%s) - start )) $step" >> "$times"
exit "$rc"
