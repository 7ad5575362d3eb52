#!/usr/bin/env bash
# The table at the end of make check: per step, its wall time and what of
# it went to making kernel trees, building kernels and booting guests (the
# rest is userspace: suites, scripts, checkers), and the CPU time it took
# on every core together, whose sum over the cores there are is the least
# wall time any order of the same work could take. Usage: check-times.sh
# TIMES
set -euo pipefail
awk -v cores="$(nproc)" '
function row(name, total, t, b, g, c) {
	printf "  %-22s %6d %6d %6d %6d %6d %6d\n", name, total, t, b, g, total - t - b - g, c
}
function mmss(s) { return sprintf("%d min %02d s", s / 60, s % 60) }
BEGIN {
	print "check: seconds per step   total  trees builds  boots   rest    cpu"
}
$1 == "tree" { t += $2 } $1 == "build" { b += $2; nb++ } $1 == "boot" { g += $2; ng++ }
$1 == "step" {
	row($3, $2, t, b, g, $4)
	T += $2; TT += t; TB += b; TG += g; TC += $4; t = b = g = 0
}
END {
	row("all", T, TT, TB, TG, TC)
	printf "check: %s in all: trees %s, %d kernel builds %s, %d boots %s, the rest %s\n",
		mmss(T), mmss(TT), nb, mmss(TB), ng, mmss(TG), mmss(T - TT - TB - TG)
	printf "check: %s of CPU time; on %d cores no order of this work takes less than %s\n",
		mmss(TC), cores, mmss(TC / cores)
}' "$1"
