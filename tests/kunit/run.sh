#!/usr/bin/env bash
# make kunit: the sg_chain suites the way kernel developers run KUnit,
# through the tree's own tools/testing/kunit/kunit.py with the series'
# lib/sg_chain/.kunitconfig: as User Mode Linux (ARCH um) and, asked for,
# under QEMU (ARCH x86_64, TCG). kunit.py builds in its own directory,
# $KSRC.build/kunit-ARCH, outside the repository, and its own KTAP parser
# gives the counts. Usage: run.sh OUTDIR ARCH...
# Ends with "N passed, N failed" over the cases of every ARCH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../kport/env.sh"
source "$REPO/scripts/times.sh"
out=$1
shift
mkdir -p "$out"

"$REPO/kport/tree.sh"
jobs=${JOBS:-$(nproc)}
passed=0 failed=0
for arch in "$@"; do
	case "$arch" in
	um) arch_args=() ;;
	x86_64) arch_args=(--arch=x86_64) ;;
	*) die "KUNIT_ARCHS: $arch: um or x86_64" ;;
	esac
	build="$KSRC.build/kunit-$arch" log="$out/$arch.log"
	if [ -f "$build/.config" ]; then
		say "kunit.py run, $arch: incremental build in $build (log: $log)"
	else
		say "kunit.py run, $arch: cold build in $build, 3 to 8 minutes (log: $log)"
	fi
	start=$(date +%s)
	# The real-faults suite fails the sg pools through failslab, which
	# reaches only caches marked at boot.
	set +e
	python3 "$KSRC/tools/testing/kunit/kunit.py" run --kunitconfig="$KSRC/lib/sg_chain" \
		--build_dir="$build" --jobs="$jobs" --kernel_args='slub_debug=A,sgpool-*' \
		"${arch_args[@]}" >"$log" 2>&1
	rc=$?
	set -e
	secs=$(( $(date +%s) - start ))
	# kunit.py's own split: "Elapsed time: Ts total, Cs configuring, Bs
	# building, Rs running".
	elapsed=$(grep -o 'Elapsed time: .*' "$log" | tail -n 1 || true)
	split() { grep -oP "[0-9]+(?=\.[0-9]+s $1)" <<< "$elapsed" || echo 0; }
	time_record build $(( $(split configuring) + $(split building) )) "$KVER kunit-$arch"
	time_record boot "$(split running)" "$KVER kunit-$arch"
	# kunit.py's summary: "Ran N tests: passed: P, failed: F, skipped: S"
	# (a count of 0 is left out).
	line=$(grep -o 'Testing complete\. Ran [0-9]* tests\?: .*' "$log" | tail -n 1 || true)
	count() { grep -o "$1: [0-9]*" <<< "$line" | grep -o '[0-9]*$' || echo 0; }
	p=$(count passed) f=$(( $(count failed) + $(count crashed) )) s=$(count skipped)
	if [ -z "$line" ] || [ "$rc" -ne 0 ] || [ "$p" -eq 0 ]; then
		# No summary: the build or the boot failed; show where.
		[ -n "$line" ] || tail -n 25 "$log" | sed 's/^/    | /'
		[ "$f" -gt 0 ] || f=1
		grep -E '\[(FAILED|CRASHED)\]' "$log" | sed 's/^/    | /' || true
	fi
	echo "[kunit] $arch: ${line:-no results} (kunit.py exit $rc, $secs s)"
	# Both kernels have all the suites need (the kunitconfig, the boot
	# argument): a skipped case means a lost config option.
	if [ "$s" -gt 0 ]; then
		echo "[kunit] $arch: $s cases skipped that must run:"
		grep -F '[SKIPPED]' "$log" | sed 's/^/    | /'
		f=$((f + s))
	fi
	passed=$((passed + p)) failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
