#!/usr/bin/env bash
# bench/summarise.py and bench/outline-helpers.py, as TAP, without timing
# anything. summarise.py gets samples of known effect: a difference of
# 15 % under 5 % noise must come out "slower" (or "faster") in every row,
# identical codes under 15 % noise "same" in every row (the intervals
# are simultaneous over the run's rows), a difference the noise hides
# never the wrong way round, and the control must be read from the third
# implementation. outline-helpers.py runs on a fake tree.
source "$(dirname "$0")/../kport/tap.sh"
echo "1..14"

# Samples of 12 processes x 9 repetitions: linux-6.1 takes T, sgchain
# RATIO x T and the control CONTROL x T, each row of each implementation
# scaled per process by its own factor within +-NOISE (where the code and
# the lists landed), and every repetition by the machine's (shared).
samples() { # DIR RATIO CONTROL NOISE
	python3 - "$@" <<'EOF'
import os, random, sys
out, ratio, control, noise = sys.argv[1], *map(float, sys.argv[2:])
rng = random.Random(7)
ops = ["for_each_sg", "sg_next to NULL", "sg_nents", "sg_nents_for_len",
       "sg_last", "sg_alloc_table_chained + free", "sg_alloc_table + free"]
for p in range(12):
    os.makedirs(f"{out}/{p}", exist_ok=True)
    # Where each function landed: its own factor in each process.
    place = {(impl, op, n): rng.uniform(1 - noise, 1 + noise)
             for impl in ("sgchain", "linux-6.1", "linux-6.1-again")
             for op in ops for n in (8, 2048)}
    with open(f"{out}/{p}/samples.tsv", "w") as f:
        f.write("operation\tentries\trepetition\timplementation\tns_per_entry\n")
        for n in (8, 2048):
            for r in range(9):
                machine = rng.uniform(0.7, 1.5)
                for op in ops:
                    for impl, k in (("sgchain", ratio), ("linux-6.1", 1.0),
                                    ("linux-6.1-again", control)):
                        ns = k * place[impl, op, n] * machine * rng.uniform(0.98, 1.02)
                        f.write(f"{op}\t{n}\t{r}\t{impl}\t{ns:.4f}\n")
                f.write(f"flat array\t{n}\t{r}\tflat\t{0.5 * machine:.4f}\n")
        for n in (128, 2048):
            for r in range(9):
                f.write(f"IOMMU map + unmap\t{n}\t{r}\tsgchain\t10.0\n")
EOF
}
verdicts() { # DIR: how many ratio rows got each verdict
	python3 "$repo/bench/summarise.py" "$1" "$1"/*/samples.tsv >/dev/null &&
		grep -oE '\| (slower|faster|same) \|' "$1/timings.md" | sort | uniq -c |
		awk '{ printf "%s %s;", $1, $3 }'
}
samples "$tmp/slower" 1.15 1.0 0.05
samples "$tmp/faster" 0.85 1.0 0.05
samples "$tmp/same" 1.0 1.0 0.15
samples "$tmp/hidden" 1.15 1.0 0.15
samples "$tmp/control" 1.0 1.15 0.05
ok "15 % slower under 5 % noise: every row slower" \
	eval '[ "$(verdicts "$tmp/slower")" = "14 slower;" ]'
ok "15 % faster under 5 % noise: every row faster" \
	eval '[ "$(verdicts "$tmp/faster")" = "14 faster;" ]'
ok "identical codes under 15 % noise: all 14 rows the same (simultaneous intervals)" \
	eval '[ "$(verdicts "$tmp/same")" = "14 same;" ]'
ok "15 % slower: the run's bound on any slowdown is above 15 %" \
	eval 'grep -oE "slower than 6.1.s by more than [0-9.]+ %" "$tmp/slower/timings.md" |
		awk "{ exit !(\$7 > 15) }"'
ok "15 % slower under 15 % noise: never judged faster" \
	eval '! verdicts "$tmp/hidden" | grep -q faster'
ok "the control is the third implementation: its false alarms are counted" \
	eval 'verdicts "$tmp/control" >/dev/null && grep -q "leaves out 1.00 in 14 of 14 rows" "$tmp/control/timings.md"'
ok "the chart's data has a line per size" \
	eval '[ "$(grep -vc "^#" "$tmp/same/walk.dat")" = 2 ]'
# Three processes whose every repetition has sgchain at 1.1, 1.2 and 1.0
# times 6.1: the interval is exp(mean +- t(0.975, 2) * sd / sqrt(3)) of the
# logarithms, computed here by awk with t = 4.303.
for p in 0 1 2; do
	mkdir -p "$tmp/exact/$p"
	awk -v k="$(echo 1.1 1.2 1.0 | cut -d' ' -f$((p + 1)))" 'BEGIN {
		print "operation\tentries\trepetition\timplementation\tns_per_entry"
		for (r = 0; r < 6; r++) {
			m = 1 + r / 3
			printf "sg_nents\t8\t%d\tsgchain\t%.6f\n", r, k * m
			printf "sg_nents\t8\t%d\tlinux-6.1\t%.6f\n", r, m
		}
	}' > "$tmp/exact/$p/samples.tsv"
done
by_hand() { # T: exp(mean +- T * sd / sqrt(3)) of the logarithms, by awk
	awk -v t="$1" 'BEGIN {
		l[0] = log(1.1); l[1] = log(1.2); l[2] = log(1.0)
		m = (l[0] + l[1] + l[2]) / 3
		for (i = 0; i < 3; i++) v += (l[i] - m) ^ 2
		h = t * sqrt(v / 2) / sqrt(3)
		printf "%.3f [%.3f, %.3f]", exp(m), exp(m - h), exp(m + h)
	}'
}
by_script() { # ROWS: the interval alone, from the script's own functions
	python3 -c 'import runpy, sys
g = runpy.run_path(sys.argv[1])
data = g["load"]([sys.argv[2] + "/%d/samples.tsv" % p for p in range(3)])
print(g["interval"](*g["ratio_interval"](data, "sg_nents", 8, "sgchain",
                                         "linux-6.1", int(sys.argv[3]))))' \
		"$repo/bench/summarise.py" "$tmp/exact" "$1" 2>&1
}
ok "the interval is the geometric mean and Student's t over processes" \
	eval '[ "$(by_script 1)" = "$(by_hand 4.303)" ]'
# The same three processes judged as one row of 50: the interval is at
# 1 - 0.05 / 50 = 99.9 %, t(0.9995, 2) = 31.599 from a printed table.
ok "one row of 50 is judged at 99.9 % (Bonferroni)" \
	eval '[ "$(by_script 50)" = "$(by_hand 31.599)" ]'
# Student's t against printed tables (two-sided tail, degrees of freedom).
got=$(python3 -c 'import runpy, sys
q = runpy.run_path(sys.argv[1])["t_quantile"]
print(" ".join("%.3f" % q(a, df) for a, df in
	((0.05, 1), (0.05, 7), (0.05, 20), (0.01, 5), (0.001, 10), (0.05, 30))))' \
	"$repo/bench/summarise.py" 2>&1)
ok "Student's t quantiles as printed tables give them" \
	eval '[ "$got" = "12.706 2.365 2.086 4.032 4.587 2.042" ]'
out=$(python3 "$repo/bench/summarise.py" "$tmp/same" "$tmp"/same/[01]/samples.tsv 2>&1)
rc=$?
ok "fewer than 3 processes are refused" eval '[ $rc -ne 0 ] && has "$out" "at least 3 processes"'

# outline-helpers.py on a fake tree: the five helpers and a caller.
t="$tmp/tree"
mkdir -p "$t/include/linux" "$t/lib"
{
	echo "/* fake */"
	for f in sg_next sg_nents sg_nents_for_len sg_last sg_init_table; do
		printf 'static inline int %s(struct scatterlist *sg,\n\t\t\tint n)\n{\n\treturn __sg_rarely(n);\n}\n\n' "$f"
	done
	printf 'static inline int caller(void)\n{\n\treturn sg_next(0, 1);\n}\n'
} > "$t/include/linux/scatterlist_chain.h"
echo "/* lib */" > "$t/lib/scatterlist.c"
git -C "$t" init -q && git -C "$t" add -A && git -C "$t" -c user.name=t -c user.email=t@t commit -qm fake
python3 "$repo/bench/outline-helpers.py" "$t"
ok "each helper becomes a prototype, the caller stays inline" \
	eval '[ "$(grep -c "^int sg_[a-z_]*(struct scatterlist \*sg,$" "$t/include/linux/scatterlist_chain.h")" = 5 ] &&
		grep -q "^static inline int caller" "$t/include/linux/scatterlist_chain.h" &&
		! grep -q "static inline int sg_" "$t/include/linux/scatterlist_chain.h"'
ok "each body is exported from lib/scatterlist.c, with the branch hint defined" \
	eval '[ "$(grep -c "^EXPORT_SYMBOL(sg_" "$t/lib/scatterlist.c")" = 5 ] &&
		grep -q "^#define __sg_rarely" "$t/lib/scatterlist.c" &&
		gcc -fsyntax-only -x c -Dscatterlist=s - <<< "struct s; $(cat "$t/include/linux/scatterlist_chain.h" "$t/lib/scatterlist.c" | sed /EXPORT_SYMBOL/d)"'
touch -d @1 "$t/include/linux/scatterlist_chain.h" "$t/lib/scatterlist.c"
python3 "$repo/bench/outline-helpers.py" "$t"
ok "a second run rewrites nothing (nothing to rebuild)" \
	eval '[ "$(stat -c %Y "$t/include/linux/scatterlist_chain.h" "$t/lib/scatterlist.c" | sort -u)" = 1 ]'
tap_done
