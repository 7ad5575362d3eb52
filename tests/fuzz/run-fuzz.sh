#!/usr/bin/env bash
# Run the fuzzer for SECONDS on a working copy of the seed corpus and end
# with "N passed, N failed": one check, failed by any crash, mismatch,
# sanitizer report or leak (the fuzzer exits non-zero and saves the input).
# Usage: run-fuzz.sh FUZZER SECONDS OUTDIR
set -uo pipefail
fuzzer=$1 seconds=$2 out=$3
seeds="$(dirname "$0")/corpus"
mkdir -p "$out/corpus" "$out/crashes"
cp -n "$seeds"/* "$out/corpus/" 2>/dev/null || true

echo "[fuzz] $seconds s of libFuzzer on $(ls "$out/corpus" | wc -l) corpus inputs; log: $out/fuzz.log"
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
	-print_final_stats=1 -artifact_prefix="$out/crashes/" \
	"$out/corpus" >"$out/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")
secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$out/fuzz.log")
cov=$(grep -o 'cov: [0-9]*' "$out/fuzz.log" | tail -n 1)
echo "[fuzz] ${runs:-?} executions in ${secs:-?} s ($(( ${runs:-0} / (${secs:-1} > 0 ? ${secs:-1} : 1) )) per second), ${cov:-cov: ?}, corpus $(ls "$out/corpus" | wc -l)"
if [ $rc -ne 0 ]; then
	grep -E "^fuzz: |ERROR: |SUMMARY: " "$out/fuzz.log" | head -n 5
	echo "[fuzz] failing input: $(ls -t "$out/crashes" | head -n 1)"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "1 passed, 0 failed"
