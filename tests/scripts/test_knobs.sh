#!/usr/bin/env bash
# Every knob of the Makefile (a variable the make line may set: one it
# gives a default with ?=, exports, or reads without ever setting) is
# named, as NAME=, in make help and in docs/targets.md, which says it
# lists every knob.
source "$(dirname "$0")/../kport/tap.sh"
mk=$repo/Makefile
# Set by make itself, or by a target for its scripts (not by the user).
internal="MAKE MAKEFLAGS CURDIR SHELL DEPS_LOG"
# Read by scripts from the environment, not by the Makefile.
from_scripts="BENCH_SIZE_CONFIGS"
knobs=$({
	grep -oE '^[A-Z_][A-Z0-9_]* \?=' "$mk" | cut -d' ' -f1
	sed -n 's/^export \([A-Z_][A-Z0-9_ ]*\)$/\1/p' "$mk" | tr ' ' '\n'
	assigned=$(grep -oE '^(export )?[A-Z_][A-Z0-9_]* *(:=|\?=|\+=|=)' "$mk" |
		sed -E 's/^export //; s/ *(:=|\?=|\+=|=)$//')
	grep -oE '\$\([A-Z_][A-Z0-9_]*\)' "$mk" | tr -d '$()' | grep -vxF "$assigned"
	printf '%s\n' $from_scripts
} | grep -vxF "$(printf '%s\n' $internal)" | grep . | sort -u)
help=$(make -s -C "$repo" help 2>/dev/null)
echo "1..$(( 2 * $(wc -l <<< "$knobs") + 1 ))"
ok "the Makefile has knobs to check" [ "$(wc -l <<< "$knobs")" -gt 10 ]
for k in $knobs; do
	ok "make help names $k=" has "$help" "$k="
	ok "docs/targets.md names $k=" grep -qF "$k=" "$repo/docs/targets.md"
done
tap_done
