#!/usr/bin/python3
"""The benchmark's timing tables, from several processes' samples.

Usage: summarise.py OUTDIR SAMPLES.tsv...   (one file per bench process)

Writes OUTDIR/timings.md (the markdown tables) and OUTDIR/walk.dat (the
chart's data). A time ratio is judged by the method that separates noise
from difference:

- each repetition times sgchain and Linux 6.1 back to back (bench.c turns
  their order), so their ratio cancels what the machine did meanwhile;
- each process gives the median of its repetitions' ratios. Processes are
  the independent units: a process fixes the lists' addresses and the
  heap, so repetitions inside one share its luck;
- across processes, a confidence interval of the ratio from Student's t
  on the logarithms of those medians;
- the intervals are simultaneous: a run judges some forty rows, and at
  95 % each about two of them would leave out 1.00 by chance alone. Each
  interval is therefore at 1 - 0.05 / rows (Bonferroni), so that the
  chance that any row of the run is misjudged is at most 5 %;
- the control, 6.1's code timed again on lists of its own, goes through
  the same method. bench.c times a second copy of 6.1's code, placed
  half a cache line away from the first, so the control sees what
  placement alone does to a ratio as well as the machine and the lists.

A row is "slower" when the whole interval lies above 1, "faster" when it
lies below, and "same" otherwise.
"""
import collections
import csv
import math
import statistics
import sys

# The family's error rate: the chance that any row of a run is misjudged.
FAMILY_ALPHA = 0.05


def t_within(t, df):
    """P(|T| <= t) for Student's t with DF degrees of freedom: the closed
    forms for integer DF (Abramowitz and Stegun, 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):  # (1.3...(k-1)) / (2.4...k) cos^k
            term *= (k - 1) / k * c2
            total += term
        return math.sin(theta) * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = math.cos(theta)
    for k in range(3, df, 2):  # (2.4...(k-1)) / (1.3...k) cos^k
        term *= (k - 1) / k * c2
        total += term
    return 2 / math.pi * (theta + math.sin(theta) * total)


def t_quantile(alpha, df):
    """The t whose two-sided tail holds ALPHA: P(|T| > t) = ALPHA."""
    lo, hi = 0.0, 1.0
    while t_within(hi, df) < 1 - alpha:
        hi *= 2
    for _ in range(200):  # bisection to the float's precision
        mid = (lo + hi) / 2
        if t_within(mid, df) < 1 - alpha:
            lo = mid
        else:
            hi = mid
    return hi


# One judged ratio: its verdict, whether the control's interval left out
# 1.00 in the same row, and the interval's upper bound.
Row = collections.namedtuple("Row", "op n verdict control_off high")

WALKS = ["for_each_sg", "sg_next to NULL", "sg_nents", "sg_nents_for_len",
         "sg_last"]
ALLOCS = ["sg_alloc_table_chained + free", "sg_alloc_table + free"]
MAP = "IOMMU map + unmap"


def load(paths):
    """{(op, n, impl): {process: {rep: ns}}}"""
    data = collections.defaultdict(dict)
    for proc, path in enumerate(paths):
        with open(path, newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                key = (row["operation"], int(row["entries"]),
                       row["implementation"])
                data[key].setdefault(proc, {})[int(row["repetition"])] = \
                    float(row["ns_per_entry"])
    return data


def pooled_median(data, key):
    return statistics.median(v for reps in data[key].values()
                             for v in reps.values())


def ratio_interval(data, op, n, num, den, rows=1):
    """(estimate, low, high) of NUM / DEN's time, over processes: an
    interval of a family of ROWS, simultaneous at 1 - FAMILY_ALPHA."""
    a, b = data[(op, n, num)], data[(op, n, den)]
    logs = [math.log(statistics.median(a[p][r] / b[p][r] for r in a[p]))
            for p in sorted(a)]
    mean = statistics.fmean(logs)
    t = t_quantile(FAMILY_ALPHA / rows, len(logs) - 1)
    half = t * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def verdict(low, high):
    return "slower" if low > 1 else "faster" if high < 1 else "same"


def interval(est, low, high):
    return f"{est:.3f} [{low:.3f}, {high:.3f}]"


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    if len(paths) < 3:
        sys.exit("summarise.py: needs the samples of at least 3 processes")
    data = load(paths)
    sizes = sorted({n for (op, n, _) in data if op in WALKS})
    family = sum(1 for n in sizes for op in WALKS + ALLOCS
                 if (op, n, "sgchain") in data)
    level = 100 * (1 - FAMILY_ALPHA / family)
    rows = []  # Row per ratio judged
    md = []

    def ratio_columns(op, n):
        est, lo, hi = ratio_interval(data, op, n, "sgchain", "linux-6.1",
                                     family)
        c_est, c_lo, c_hi = ratio_interval(data, op, n, "linux-6.1-again",
                                           "linux-6.1", family)
        rows.append(Row(op, n, verdict(lo, hi),
                        verdict(c_lo, c_hi) != "same", hi))
        return f"{interval(est, lo, hi)} | {interval(c_est, c_lo, c_hi)} | " \
            f"{verdict(lo, hi)}"

    reps = max(len(r) for procs in data.values() for r in procs.values())
    md.append(f"## Walks and counts, ns per entry ({len(paths)} processes x "
              f"{reps} repetitions)\n")
    md.append("Times are medians of all repetitions. Ratios: the estimate "
              "(geometric mean over processes) and its interval, "
              f"simultaneous at 95 % over the {family} rows of the run "
              f"(each at {level:.2f} %); the control is Linux 6.1's code "
              "timed against a second copy of itself placed half a cache "
              "line away.\n")
    md.append("| entries | operation | sgchain | linux-6.1 | flat array | "
              "sgchain / linux-6.1 | control: linux-6.1 / itself | verdict | "
              "sgchain / flat |")
    md.append("| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for n in sizes:
        flat = pooled_median(data, ("flat array", n, "flat"))
        for op in WALKS:
            a = pooled_median(data, (op, n, "sgchain"))
            b = pooled_median(data, (op, n, "linux-6.1"))
            md.append(f"| {n} | {op} | {a:.3f} | {b:.3f} | {flat:.3f} | "
                      f"{ratio_columns(op, n)} | {a / flat:.2f} |")
    md.append("\n## Allocation + free, ns per entry (same mock allocator "
              "for both)\n")
    md.append("| entries | operation | sgchain | linux-6.1 | "
              "sgchain / linux-6.1 | control: linux-6.1 / itself | verdict |")
    md.append("| ---: | --- | ---: | ---: | ---: | ---: | --- |")
    for n in sizes:
        for op in ALLOCS:
            a = pooled_median(data, (op, n, "sgchain"))
            b = pooled_median(data, (op, n, "linux-6.1"))
            md.append(f"| {n} | {op} | {a:.2f} | {b:.2f} | "
                      f"{ratio_columns(op, n)} |")

    slower = [f"{r.op} at {r.n}" for r in rows if r.verdict == "slower"]
    faster = sum(r.verdict == "faster" for r in rows)
    false_alarms = sum(r.control_off for r in rows)
    worst = max(rows, key=lambda r: r.high)
    md.append(f"\nVerdicts over {len(rows)} rows: {len(slower)} slower"
              f"{' (' + ', '.join(slower) + ')' if slower else ''}, "
              f"{faster} faster, {len(rows) - len(slower) - faster} the "
              f"same within the interval. No row's interval reaches above "
              f"{worst.high:.3f} ({worst.op} at {worst.n}): with 95 % "
              f"confidence for the run as a whole, "
              + (f"no operation is slower than 6.1's by more than "
                 f"{100 * (worst.high - 1):.1f} %." if worst.high > 1 else
                 "every operation is faster than 6.1's.") +
              f" The control's interval leaves out 1.00 in {false_alarms} of "
              f"{len(rows)} rows (by chance alone, in any row of a run at "
              f"most 5 % of the time).")

    map_sizes = sorted({n for (op, n, _) in data if op == MAP})
    cost = {n: pooled_median(data, (MAP, n, "sgchain")) for n in map_sizes}
    mid = statistics.median_low(cost.values())
    md.append("\n## IOMMU map + unmap, ns per entry (usim merging IOMMU, "
              "pairs merged)\n")
    md.append("| entries | ns per entry | vs the median size |")
    md.append("| ---: | ---: | ---: |")
    for n in map_sizes:
        md.append(f"| {n} | {cost[n]:.2f} | {cost[n] / mid:.2f} |")
    lo, hi = min(cost.values()), max(cost.values())
    md.append(f"\nCost per entry from {map_sizes[0]} to {map_sizes[-1]} "
              f"entries: {lo:.2f} to {hi:.2f} ns, within "
              f"{100 * max(hi - mid, mid - lo) / mid:.0f}% of the median "
              f"size's.")

    with open(f"{out}/timings.md", "w") as f:
        f.write("\n".join(md) + "\n")
    with open(f"{out}/walk.dat", "w") as f:
        f.write("# entries sgchain_for_each sgchain_sg_next "
                "linux61_for_each linux61_sg_next flat\n")
        for n in sizes:
            f.write(f"{n} " + " ".join(
                f"{pooled_median(data, key):.4f}" for key in [
                    ("for_each_sg", n, "sgchain"),
                    ("sg_next to NULL", n, "sgchain"),
                    ("for_each_sg", n, "linux-6.1"),
                    ("sg_next to NULL", n, "linux-6.1"),
                    ("flat array", n, "flat")]) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
