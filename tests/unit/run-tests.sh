#!/usr/bin/env bash
# Run unit test binaries and end with one line "N passed, N failed".
#
#   run-tests.sh [--valgrind] [--timeout SECONDS] [--out DIR] BINARY...
#
# Logs go to DIR/logs-MODE and the summary line to DIR/summary-MODE; DIR
# is by default the directory above the first binary's (build/unit).
#
# Plain mode counts cmocka's TAP lines, one per test; a binary that crashes,
# times out or prints fewer results than it planned counts as a failure of
# its own. --valgrind runs each binary under memcheck with full leak
# checking and counts one result per binary: it passes only if its tests
# pass and valgrind reports no error and no lost or reachable byte.
set -uo pipefail

mode=plain
timeout_s=60
out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--valgrind) mode=valgrind; timeout_s=600; shift ;;
	--timeout) timeout_s="$2"; shift 2 ;;
	--out) out="$2"; shift 2 ;;
	--) shift; break ;;
	-*) echo "run-tests.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "run-tests.sh: no test binaries given" >&2; exit 2; }

passed=0
failed=0
failures=()
out=${out:-$(dirname "$1")/..}
logdir="$out/logs-$mode"
mkdir -p "$logdir"
jobs=${JOBS:-$(nproc)}

log_of() { local name="${1#*/unit/}"; echo "$logdir/${name//\//-}.log"; }

# One binary, its log and "exit-code milliseconds" beside it.
run_one() {
	local bin=$1 log t0 rc cmd=("$1")
	log=$(log_of "$bin")
	if [ "$mode" = valgrind ]; then
		cmd=(valgrind --quiet --error-exitcode=99 --leak-check=full
		     --show-leak-kinds=all --errors-for-leak-kinds=all
		     --track-origins=yes "$bin")
	fi
	t0=$(date +%s%N)
	CMOCKA_MESSAGE_OUTPUT=TAP timeout "$timeout_s" "${cmd[@]}" >"$log" 2>&1
	rc=$?
	echo "$rc $(( ($(date +%s%N) - t0) / 1000000 ))" > "$log.rc"
}

# The binaries are independent: run as many at once as there are cores.
start_ns=$(date +%s%N)
running=0
for bin in "$@"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_one "$bin" &
	running=$((running + 1))
done
wait
total_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))

for bin in "$@"; do
	name="${bin#*/unit/}"
	log=$(log_of "$bin")
	read -r rc ms < "$log.rc"

	ok=$(grep -c '^ok ' "$log")
	notok=$(grep -c '^not ok ' "$log")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n 1)
	problem=""
	if [ $rc -eq 124 ]; then
		problem="timed out after ${timeout_s}s"
	elif [ $rc -eq 99 ] && [ "$mode" = valgrind ]; then
		problem="valgrind reported errors or leaks"
	elif [ $rc -gt 128 ]; then
		problem="killed by signal $((rc - 128))"
	elif [ -z "$plan" ] || [ $((ok + notok)) -ne "$plan" ]; then
		problem="ran $((ok + notok)) of ${plan:-?} planned tests (exit $rc)"
	elif [ $rc -ne 0 ] && [ "$notok" -eq 0 ]; then
		problem="exit $rc with no failed test"
	fi

	if [ "$mode" = valgrind ]; then
		if [ -z "$problem" ] && [ "$notok" -eq 0 ]; then
			passed=$((passed + 1))
			printf '  ok    %-28s %3d tests clean  %6d ms\n' "$name" "$ok" "$ms"
		else
			failed=$((failed + 1))
			failures+=("$name: ${problem:-$notok tests failed} (log: $log)")
			printf '  FAIL  %-28s %s\n' "$name" "${problem:-$notok tests failed}"
		fi
		continue
	fi

	passed=$((passed + ok))
	failed=$((failed + notok))
	while IFS= read -r line; do
		failures+=("$name: ${line#not ok * - }")
	done < <(grep '^not ok ' "$log")
	if [ -n "$problem" ]; then
		failed=$((failed + 1))
		failures+=("$name: $problem (log: $log)")
	fi
	printf '  %-5s %-28s %3d passed %2d failed  %5d ms\n' \
		"$([ -z "$problem" ] && [ "$notok" -eq 0 ] && echo ok || echo FAIL)" \
		"$name" "$ok" "$notok" "$ms"
done

echo "$mode: $# binaries in ${total_ms} ms on $jobs cores (run time only, builds excluded)"
if [ ${#failures[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed" | tee "$out/summary-$mode"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
