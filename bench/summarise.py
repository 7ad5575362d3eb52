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
- across processes, a 95 % confidence interval of the ratio from
  Student's t on the logarithms of those medians;
- the control, 6.1's code timed again on lists of its own, goes through
  the same method. It runs the same code at the same addresses, so it
  measures the machine and the lists' layout, not the code's placement:
  placement shows only in the spread of sgchain's ratio over processes.

A row is "slower" when the whole interval lies above 1, "faster" when it
lies below, and "same" otherwise.
"""
import collections
import csv
import math
import statistics
import sys

# Student's t, two-sided 95 %, by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
       8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160,
       14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
       20: 2.086}

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


def ratio_interval(data, op, n, num, den):
    """(estimate, low, high) of NUM / DEN's time, over processes."""
    a, b = data[(op, n, num)], data[(op, n, den)]
    logs = [math.log(statistics.median(a[p][r] / b[p][r] for r in a[p]))
            for p in sorted(a)]
    if len(logs) - 1 not in T95:
        sys.exit(f"summarise.py: {len(logs)} processes: at most "
                 f"{max(T95) + 1} (the table of Student's t)")
    mean = statistics.fmean(logs)
    half = T95[len(logs) - 1] * statistics.stdev(logs) / math.sqrt(len(logs))
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
    rows = []  # (op, n, verdict, control excludes 1)
    md = []

    def ratio_columns(op, n):
        est, lo, hi = ratio_interval(data, op, n, "sgchain", "linux-6.1")
        c_est, c_lo, c_hi = ratio_interval(data, op, n, "linux-6.1-again",
                                           "linux-6.1")
        rows.append((op, n, verdict(lo, hi), verdict(c_lo, c_hi) != "same"))
        return f"{interval(est, lo, hi)} | {interval(c_est, c_lo, c_hi)} | " \
            f"{verdict(lo, hi)}"

    reps = max(len(r) for procs in data.values() for r in procs.values())
    md.append(f"## Walks and counts, ns per entry ({len(paths)} processes x "
              f"{reps} repetitions)\n")
    md.append("Times are medians of all repetitions. Ratios: the estimate "
              "and its 95 % confidence interval over processes; the control "
              "is Linux 6.1's code timed against itself.\n")
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

    slower = [f"{op} at {n}" for op, n, v, _ in rows if v == "slower"]
    faster = sum(v == "faster" for _, _, v, _ in rows)
    false_alarms = sum(c for *_, c in rows)
    md.append(f"\nVerdicts over {len(rows)} rows: {len(slower)} slower"
              f"{' (' + ', '.join(slower) + ')' if slower else ''}, "
              f"{faster} faster, {len(rows) - len(slower) - faster} the "
              f"same within the interval. The control's interval leaves out "
              f"1.00 in {false_alarms} of {len(rows)} rows (at 95 %, about "
              f"{0.05 * len(rows):.0f} are expected by chance).")

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
