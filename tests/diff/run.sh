#!/usr/bin/env bash
# make diff: the differential suite. For each build (chain, nochain) run
# diff-k61 and diff-sgchain over the same inputs, then judge every
# difference against kport/declared-differences (tests/diff/compare.py).
# Usage: run.sh DIFF_DIR. Ends with "N passed, N failed".
set -uo pipefail
dir=$1
repo="$(cd "$(dirname "$0")/../.." && pwd)"
passed=0 failed=0
failures=()

for build in chain nochain; do
	out="$dir/$build"
	t0=$(date +%s%N)
	# The two sides are independent: one per core. DIFF_TIMEOUT bounds a
	# side that loops (make mutate plants such bugs).
	timeout "${DIFF_TIMEOUT:-600}" "$out/diff-k61" > "$out/k61.out" 2> "$out/k61.log" &
	timeout "${DIFF_TIMEOUT:-600}" "$out/diff-sgchain" > "$out/sgchain.out" 2> "$out/sgchain.log"
	rc_sg=$?
	wait $!
	rc_k61=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	if [ $rc_k61 -ne 0 ] || [ $rc_sg -ne 0 ]; then
		failed=$((failed + 1))
		failures+=("$build: a side exited $rc_k61/$rc_sg (logs: $out/*.log)")
		continue
	fi
	python3 "$repo/tests/diff/compare.py" --declared "$repo/kport/declared-differences" \
		--build "$build" "$out/k61.out" "$out/sgchain.out" > "$out/compare.tap"
	ok=$(grep -c '^ok ' "$out/compare.tap")
	notok=$(grep -c '^not ok ' "$out/compare.tap")
	passed=$((passed + ok))
	failed=$((failed + notok))
	printf '  %-5s %-8s %3d passed %2d failed  %6d ms  %s\n' \
		"$([ "$notok" -eq 0 ] && echo ok || echo FAIL)" "$build" "$ok" "$notok" "$ms" \
		"$(sed -n 's/^# \(chain\|nochain\): \([0-9]* inputs, [0-9]* differ\).*/\2/p' "$out/compare.tap")"
	while IFS= read -r line; do
		failures+=("$build: ${line#not ok * - }")
	done < <(grep '^not ok ' "$out/compare.tap")
	grep -A8 '^not ok ' "$out/compare.tap" | grep '^#' | head -n 12 | sed 's/^/        /'
done

echo "diff: linux-6.1 against the series, every input; details in $dir/*/compare.tap"
if [ ${#failures[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed" | tee "$dir/summary"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
