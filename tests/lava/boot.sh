#!/usr/bin/env bash
# One boot of the QEMU runner as a LAVA job: what run_guest (tests/qemu/
# host.sh) does instead of starting QEMU when GUEST_VIA says so. Usage:
# boot.sh OUTDIR QEMU ARGS..., the command run_guest was given.
#   GUEST_VIA=lava-job  write OUTDIR/lava-job/ (job.yaml, device.yaml and
#                       the artifacts) and stop
#   GUEST_VIA=lava      also run it with lava-run, offline, and leave what
#                       the runner's judge reads: OUTDIR/console.log (the
#                       guest's lines from LAVA's log), OUTDIR/qemu.rc, and
#                       OUTDIR/lava.ktap, LAVA's results against that
#                       console (tests/lava/agree.py)
# The runner gives GUEST_SUITES, its KTAP suites in boot order (a monitor
# each). LAVA_URL: where a lab fetches the artifacts from (default: file://
# the job's directory). LAVA_OUT_ROOT and LAVA_REF_ROOT: OUTDIR under the
# first is compared with the same path under the second, the direct run's
# output (LAVA_REQUIRE_REFERENCE=1: it must be there).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lava-env.sh"
out=$1
shift
: "${GUEST_SUITES:?tests/lava/boot.sh: the runner names no GUEST_SUITES}"
out=$(realpath -m -- "$out")
rel=${out#"${LAVA_OUT_ROOT:-/nonexistent}/"}
[ "$rel" != "$out" ] || rel=$(basename "$out")
jobdir="$out/lava-job"
# Nothing an earlier run left may be judged as this one's.
rm -rf "$jobdir" "$out/qemu.argv" "$out/lava-run"
rm -f "$out/console.log" "$out/qemu.rc" "$out/lava.log" "$out/results.yaml" "$out/lava.ktap"
url=()
[ -z "${LAVA_URL:-}" ] || url=(--url "${LAVA_URL%/}/$rel/lava-job")

# The command as given, for agree.py to hold LAVA's "Boot command" to.
printf '%s\n' "$@" > "$out/qemu.argv"
"$LAVA_PYTHON" "$here/job.py" --name "$rel" --suites "$GUEST_SUITES" \
	--timeout "${QEMU_TIMEOUT:-600}" --templates "$LAVA_TEMPLATES" \
	--server "$LAVA_SERVER_MODULES" --out "$jobdir" "${url[@]}" -- "$@"
[ "$GUEST_VIA" = lava ] || exit 0

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
# lava-run cannot tell its own address without a default route: named.
echo "dispatcher_ip: 127.0.0.1" > "$jobdir/dispatcher.yaml"
mkdir -p "$out/lava-run"
echo "[lava] lava-run $rel (watchdog ${QEMU_TIMEOUT:-600}s); log: $out/lava.log"
start=$(date +%s)
set +e
"${sudo[@]}" lava-run --job-id "sgchain-$$" --output-dir "$out/lava-run" \
	--device "$jobdir/device.yaml" --dispatcher "$jobdir/dispatcher.yaml" \
	"$jobdir/job.yaml" > "$out/lava.log" 2>&1
rc=$?
set -e
echo "[lava] job ran $(( $(date +%s) - start )) s, lava-run exit $rc"
echo "$rc" > "$out/qemu.rc"
"$LAVA_PYTHON" "$here/log.py" "$out/lava.log" "$out"
ref=()
if [ -n "${LAVA_REF_ROOT:-}" ]; then
	ref=(--reference "$LAVA_REF_ROOT/$rel/console.log")
	[ "${LAVA_REQUIRE_REFERENCE:-0}" != 1 ] || ref+=(--require-reference)
fi
"$LAVA_PYTHON" "$here/agree.py" --suites "$GUEST_SUITES" --argv "$out/qemu.argv" "${ref[@]}" \
	"$out/results.yaml" "$out/console.log" > "$out/lava.ktap"
sed -n -e 's/^    # \(LAVA failed: .*\)/[lava] \1/p' \
	-e 's/^    # \(counts not compared: .*\)/[lava] \1/p' "$out/lava.ktap"
