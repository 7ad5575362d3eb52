#!/usr/bin/env bash
# make bench: timings, instruction counts, a chart and kernel text sizes,
# assembled into OUTDIR/results.md. Usage: run.sh OUTDIR BENCH...
# (one benchmark binary per code placement, the Makefile's BENCH_PLACEMENTS)
set -euo pipefail
out=$1
shift
here="$(cd "$(dirname "$0")" && pwd)"
bench=$1 # both sides at +0, for the instruction counts
res="$out/results.md"

# One process per binary, one after another. A binary fixes where each
# side's code lands in the cache lines (Makefile: BENCH_PLACEMENTS and
# BENCH_SHIFTS) and a process where its lists are in memory, so the
# processes' spread is the noise that the ratios' intervals must cover
# (bench/summarise.py).
rm -rf "$out"/process-*
# In a random order, so that a drift of the machine over the run does not
# fall on the same placements every time.
k=0
for b in $(printf '%s\n' "$@" | shuf); do
	k=$((k + 1))
	echo "[bench] timings: process $k of $#, $(basename "$(dirname "$b")")"
	mkdir -p "$out/process-$k"
	"$b" "$out/process-$k"
done
python3 "$here/summarise.py" "$out" "$out"/process-*/samples.tsv > /dev/null

echo "[bench] instruction counts under callgrind (stable on a noisy machine)"
placed() { # FIELD BENCH...: the offsets (1) or shifts (2) BENCH were built at
	printf '%s\n' "${@:2}" | sed -n 's|.*/bin-\([0-9]*\)-\([0-9]*\)/bench$|\1 \2|p' |
		cut -d' ' -f"$1" | sort -nu | paste -sd, | sed 's/,/, /g'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ir_per_entry() { # WHAT FUNCTION N: instructions per entry in FUNCTION
	local file="$out/callgrind.$1.$3"
	valgrind --tool=callgrind --callgrind-out-file="$file" --collect-atstart=no \
		--toggle-collect="$2" "$bench" --count "$1" "$3" >/dev/null 2>&1
	awk -v n="$3" '/^summary:/ { printf "%.2f", $2 / (100 * n) }' "$file"
}
{
	echo "## Instructions per entry (valgrind --tool=callgrind, 100 runs)"
	echo
	echo "| path | entries | sgchain | linux-6.1 | flat array | sgchain / linux-6.1 | sgchain / flat |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	for n in 128 2048 65536; do
		a=$(ir_per_entry walk-sgchain sgchain_walk_for_each $n)
		b=$(ir_per_entry walk-k61 k61_walk_for_each $n)
		f=$(ir_per_entry walk-flat flat_walk $n)
		echo "| for_each_sg walk | $n | $a | $b | $f | $(ratio "$a" "$b") | $(ratio "$a" "$f") |"
	done
	for what in nents:sg_nents nents_for_len:sg_nents_for_len last:sg_last; do
		for n in 128 2048 65536; do
			a=$(ir_per_entry "${what%%:*}-sgchain" "sgchain_${what%%:*}" $n)
			b=$(ir_per_entry "${what%%:*}-k61" "k61_${what%%:*}" $n)
			echo "| ${what#*:} | $n | $a | $b | | $(ratio "$a" "$b") | |"
		done
	done
	# From 8 entries: one small table is where allocation costs most per
	# entry, and where a fixed cost of sgchain's would show.
	for what in alloc:chained:sg_alloc_table_chained kmalloc:kmalloc:sg_alloc_table; do
		mode=${what%%:*} fn=${what#*:} fn=${fn%%:*}
		for n in 8 128 2048 65536; do
			a=$(ir_per_entry "$mode-sgchain" "sgchain_alloc_free_$fn" $n)
			b=$(ir_per_entry "$mode-k61" "k61_alloc_free_$fn" $n)
			echo "| ${what##*:} + free | $n | $a | $b | | $(ratio "$a" "$b") | |"
		done
	done
	for n in 128 2048 65536; do
		echo "| IOMMU map + unmap | $n | $(ir_per_entry map-sgchain map_unmap $n) | | | | |"
	done
	echo
} > "$out/instructions.md"

echo "[bench] chart: $out/walk.png"
gnuplot <<GP
set terminal pngcairo size 900,540 font "sans,11"
set output "$out/walk.png"
set title "Walking a scatterlist: ns per entry (median over every process and repetition)"
set xlabel "entries in the list"
set ylabel "ns per entry"
set logscale x 2
set key outside right
set yrange [0:*]
set grid
plot "$out/walk.dat" using 1:2 with linespoints lw 2 title "sgchain for\\\\_each\\\\_sg", \
     "$out/walk.dat" using 1:3 with linespoints lw 2 title "sgchain sg\\\\_next to NULL", \
     "$out/walk.dat" using 1:4 with linespoints lw 2 title "linux-6.1 for\\\\_each\\\\_sg", \
     "$out/walk.dat" using 1:5 with linespoints lw 2 title "linux-6.1 sg\\\\_next to NULL", \
     "$out/walk.dat" using 1:6 with linespoints lw 2 title "flat array"
GP

# Kernel text of each config, pristine and patched: the first run builds
# two kernels per config (Debian's took 30 to 70 minutes on two cores), later
# runs reuse them.
: > "$out/kernel-size.md"
for config in ${BENCH_SIZE_CONFIGS-kport x86_64_defconfig debian}; do
	echo "[bench] kernel text, $config config"
	SIZE_CONFIG=$config "$here/kernel-size.sh" > "$out/kernel-size-$config.md"
	{ cat "$out/kernel-size-$config.md"; echo; } >> "$out/kernel-size.md"
done

{
	echo "# sgchain benchmark"
	echo
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -r)."
	echo "Compiler: $(${CC:-cc} --version | head -n 1), -O2, the same flags for sgchain and Linux 6.1's code, loops and jumps packed as in an x86-64 kernel, one process per binary, $# binaries: sgchain's functions at each offset from a 64-byte line of $(placed 1 "$@"), 6.1's $(placed 2 "$@") bytes further on, the control's 32 more."
	echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'). All figures below come from this one run."
	echo
	cat "$out/timings.md"
	echo
	cat "$out/instructions.md"
	cat "$out/kernel-size.md"
} > "$res"
cat "$out/timings.md" "$out/instructions.md" "$out/kernel-size.md"
echo "[bench] results: $res, chart: $out/walk.png"
