#!/usr/bin/env bash
# The table at the end of make check: per step, its wall time and what of
# it went to making kernel trees, building kernels and booting guests; the
# rest is userspace (suites, scripts, checkers). Usage: check-times.sh TIMES
set -euo pipefail
awk '
function row(name, total, t, b, g) {
	printf "  %-22s %6d %6d %6d %6d %6d\n", name, total, t, b, g, total - t - b - g
}
function mmss(s) { return sprintf("%d min %02d s", s / 60, s % 60) }
BEGIN {
	print "check: seconds per step   total  trees builds  boots   rest"
}
$1 == "tree" { t += $2 } $1 == "build" { b += $2; nb++ } $1 == "boot" { g += $2; ng++ }
$1 == "step" {
	row($3, $2, t, b, g)
	T += $2; TT += t; TB += b; TG += g; t = b = g = 0
}
END {
	row("all", T, TT, TB, TG)
	printf "check: %s in all: trees %s, %d kernel builds %s, %d boots %s, the rest %s\n",
		mmss(T), mmss(TT), nb, mmss(TB), ng, mmss(TG), mmss(T - TT - TB - TG)
}' "$1"
