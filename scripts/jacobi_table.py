#!/usr/bin/env python3
"""scripts/jacobi_table.py - issue 15's table from a `gridsync bench jacobi --csv` file:
every method, form, size and block count in ms per run, each method's best block count,
and speed-ups (the baseline's best time over the method's: above 1 is faster) against
the user's grid.sync() kernel (cg, sync form), grid.sync() in the same form (for the
halo form: the resident form, its tiles with grid.sync()), and the CUDA-graph relaunch.
Only rows whose check passed count. Standard library only.

With --cells, one table a size instead: every cell as "ms / x cg / x graph", the method's
time over grid.sync()'s (the CSV's paired ratio, the median over the rounds of the two
times of one round; "*" where there is none: the ratio of medians) and over
relaunch-graph's at the same grid: below 1 is faster. A cell whose check did not pass
shows its check.

    python3 scripts/jacobi_table.py bench/results/h200/jacobi_eighth.csv [--md] [--cells]
"""
import csv
import sys
from collections import defaultdict


def cells_tables(all_rows):
    """One markdown table a size: every method's cells, ms / x cg / x graph."""
    cell, methods = {}, []
    for r in all_rows:  # the summary rows at the end repeat earlier ones: the first counts
        key = (int(r["n"]), int(r["iters"]), int(r["groups"]), r["algo"], r["form"] or "-")
        if key not in cell:
            cell[key] = r
        if (r["algo"], r["form"] or "-") not in methods:
            methods.append((r["algo"], r["form"] or "-"))
    sizes = sorted({k[:2] for k in cell})
    grids = sorted({k[2] for k in cell})
    for n, iters in sizes:
        print("#### %d^2 x %d\n" % (n, iters))
        print("| method | " + " | ".join(str(g) for g in grids) + " |")
        print("|---|" + "---|" * len(grids))
        for algo, form in methods:
            out = []
            for g in grids:
                r = cell.get((n, iters, g, algo, form))
                if r is None:
                    out.append("")
                elif r["check"] != "pass":
                    out.append(r["check"])
                else:
                    t = float(r["total_ms"])
                    cg = "%.4f" % float(r["paired_cg"]) if r["paired_cg"] else (
                        "%.4f*" % float(r["ratio_cg"]) if r["ratio_cg"] else "")
                    rg = cell.get((n, iters, g, "relaunch-graph", "-"))
                    xg = "%.3f" % (t / float(rg["total_ms"])) if rg and rg["check"] == "pass" else ""
                    out.append("%.2f / %s / %s" % (t, cg, xg))
            name = algo if form == "-" else "%s (%s)" % (algo, form)
            print("| " + name + " | " + " | ".join(out) + " |")
        print()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if "--cells" in sys.argv:
        cells_tables(list(csv.DictReader(open(sys.argv[1]))))
        return
    rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["check"] == "pass"]
    md = "--md" in sys.argv
    ms = defaultdict(dict)  # (n, iters, algo, form) -> {groups: ms}
    for r in rows:
        form = r["form"] or "-"
        ms[(int(r["n"]), int(r["iters"]), r["algo"], form)][int(r["groups"])] = float(r["total_ms"])
    grids = sorted({g for v in ms.values() for g in v})
    best = {k: min(v.values()) for k, v in ms.items()}

    def ref(n, iters, algo, form):
        return best.get((n, iters, algo, form))

    head = ["size", "method", "form"] + [str(g) for g in grids] + [
        "best", "x cg (sync)", "x cg (same form)", "x relaunch-graph"]
    sep = " | " if md else "  "
    lines = [head]
    for (n, iters, algo, form) in sorted(ms, key=lambda k: (k[0], k[3], k[2])):
        v = ms[(n, iters, algo, form)]
        b = best[(n, iters, algo, form)]
        cells = ["%d^2 x %d" % (n, iters), algo, form]
        cells += ["%.2f" % v[g] if g in v else "" for g in grids]
        cells.append("%.2f" % b)
        # the halo form is the resident form's kernel without its barrier: its "same
        # form" is cg's resident kernel (the same tiles with grid.sync())
        same = "resident" if form == "halo" else form
        for base in (ref(n, iters, "cg", "sync"), ref(n, iters, "cg", same),
                     ref(n, iters, "relaunch-graph", "-")):
            cells.append("%.3f" % (base / b) if base and form != "-" else "")
        lines.append(cells)
    if md:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for c in lines[1:]:
            print("| " + " | ".join(c) + " |")
    else:
        w = [max(len(c[i]) for c in lines) for i in range(len(head))]
        for c in lines:
            print(sep.join(x.ljust(w[i]) for i, x in enumerate(c)))


if __name__ == "__main__":
    main()
