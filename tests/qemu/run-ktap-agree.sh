#!/usr/bin/env bash
# make kunit-parse: tests/qemu/ktap_agree.py with the kunit.py of KVER's
# tree over a console log of make qemu. Usage: run-ktap-agree.sh OUTDIR LOG
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../kport/env.sh"
log=$2
[ -f "$log" ] || die "no $log: run 'make qemu${KVER:+ KVER=$KVER}' first"
kunit_py="$KSRC/tools/testing/kunit/kunit.py"
[ -f "$kunit_py" ] || die "no $kunit_py: run 'make qemu KVER=$KVER' first"
echo "[kunit-parse] $log: tests/qemu/ktap.py against $kunit_py parse"
# sg_chain_io is the KTAP of sgchain's init, after the kernel's.
"$here/ktap_agree.py" "$kunit_py" "$log" --not-kunit sg_chain_io
