#!/usr/bin/env python3
"""scripts/results_tables.py - the tables of docs/results.md, made from the CSVs under
bench/results/<gpu>/ beside the seeds' 2013 numbers (Python standard library only).

    python3 scripts/results_tables.py                 # the tables, on stdout
    python3 scripts/results_tables.py --write docs/results.md
        # rewrites each block between <!-- BEGIN name --> and <!-- END name --> in place
    python3 scripts/results_tables.py --dat DIR       # gnuplot data for scripts/plots.sh

Where the thesis's own experiment has not run yet on a GPU (bench thesis, files
thesis_{h,i,j}[_opencl].csv from gpu.sh's stages cli_thesis and cli_thesis_opencl),
the nearest existing experiment stands in and the table says so; after the GPU run,
rerun with --write and the stand-ins give way to the thesis's experiment.
"""
import argparse
import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
GPUS = ["h100", "h200"]

# The thesis (seed 000), Appendices H, I, J, as printed: DCB Sync, CB Sync, CPU Sync.
THESIS_H = {  # work-groups: ns, one synchronization (its Figure 4-4)
    1: (13666, 14223, 7111), 10: (13778, 16889, 7666), 20: (14111, 18000, 8111),
    30: (14284, 22223, 8444), 40: (14444, 23555, 8998), 50: (14556, 26334, 9333),
    60: (14778, 29777, 9667), 70: (14555, 32000, 10111)}
THESIS_I = {  # iterations: ms at 70 work-groups
    10: (7.203, 7.749, 7.207), 500: (11.987, 18.402, 176.852), 1000: (15.495, 32.518, 302.903),
    1500: (18.004, 41.543, 458.671), 2000: (20.267, 48.254, 632.585),
    2500: (28.174, 55.443, 835.143), 3000: (36.216, 61.3, 999.043)}
THESIS_J = {  # work-groups: KB of data on the GPU
    10: (6.81, 5.63, 5), 20: (13.75, 11.25, 10), 30: (20.06, 17.75, 15), 40: (26.19, 24.13, 20),
    50: (34.81, 29, 25), 60: (43, 34.69, 30), 70: (52.06, 40.75, 35)}
THESIS_ALGOS = ("lockfree", "central", "relaunch")  # DCB, CB, CPU Sync

# The blog (seed 001): 2048 work-items, 500000 iterations, two barriers each, ms by
# work-group size; "10000+" is written 10000. Without a barrier: 220 ms.
BLOG = {"naive": ("globalSync1", {1024: 3020, 64: 3021, 32: 10000}),
        "central": ("globalSync2", {1024: 1020, 64: 1024, 32: 10000}),
        "lockfree": ("globalSync3", {1024: 1405, 64: 1377, 32: 10000})}
BLOG_NO_BARRIER_MS = 220


def read(gpu, name):
    """The rows of bench/results/<gpu>/<name> (dicts), or None when it is not there."""
    path = os.path.join(RESULTS, gpu, name)
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def device(rows):
    return rows[0]["device"] if rows else "?"


def fmt(x, digits=3):
    if x is None:
        return "–"
    if x >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}" if x < 1 else f"{x:.{digits}g}" if x < 100 else f"{x:.1f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def order_name(dcb, cb, cpu):
    """The three protocols from fastest to slowest, thesis names."""
    if None in (dcb, cb, cpu):
        return "–"
    return " < ".join(n for _, n in sorted([(dcb, "DCB"), (cb, "CB"), (cpu, "CPU")]))


def pick(rows, exp, key, value, algo, field, **match):
    """The float `field` of the passing row of experiment `exp` with row[key] == value."""
    for r in rows or []:
        if r["experiment"] == exp and r["algo"] == algo and int(r[key]) == value \
                and r["check"] in ("pass", "n/a") and all(r[k] == str(v) for k, v in match.items()):
            return float(r[field])
    return None


def ours_source(gpu, appendix, opencl=False):
    """(rows, experiment, label): the thesis's experiment where it ran, else a stand-in."""
    sfx = "_opencl" if opencl else ""
    rows = read(gpu, f"thesis_{appendix.lower()}{sfx}.csv")
    if rows:
        b = rows[0]
        return rows, f"thesis-{appendix}", (
            f"`gridsync bench thesis --appendix {appendix}` ({b['backend']}, {b['block']} work-items, "
            f"--compute {b['compute']})")
    if opencl:
        return None, None, None
    if appendix == "H":
        return read(gpu, "groups.csv"), "groups", (
            "**stand-in** until the GPU run: `gridsync bench groups` (blocks of 256, no computation, "
            "ns per barrier over 2000 barriers, not one kernel with one barrier)")
    if appendix == "I":
        return read(gpu, "iters.csv"), "iters", (
            "**stand-in** until the GPU run: `gridsync bench iters` (70 blocks of 256, no computation)")
    return read(gpu, "memory.csv"), "memory", (
        "`gridsync bench memory` (barrier state only: the same bytes as the thesis's grid)")


def table_h(gpu, opencl=False):
    rows, exp, label = ours_source(gpu, "H", opencl)
    if not rows:
        return None
    field = "total_ms" if exp.startswith("thesis") else "ns_per_barrier"
    scale = 1e6 if field == "total_ms" else 1.0
    out = [f"{device(rows)}, {label}; thesis: ATI Mobility Radeon HD 5870, OpenCL, ns", "",
           "| groups | thesis DCB | CB | CPU | DCB/CB | CPU/CB | thesis order | "
           "ours lockfree | central | relaunch | lockfree/central | relaunch/central | our order |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for g, (dcb, cb, cpu) in THESIS_H.items():
        o = [pick(rows, exp, "groups", g, a, field) for a in THESIS_ALGOS]
        o = [x * scale if x is not None else None for x in o]
        out.append(f"| {g} | {dcb} | {cb} | {cpu} | {fmt(dcb / cb)} | {fmt(cpu / cb)} | "
                   f"{order_name(dcb, cb, cpu)} | {fmt(o[0])} | {fmt(o[1])} | {fmt(o[2])} | "
                   f"{fmt(ratio(o[0], o[1]))} | {fmt(ratio(o[2], o[1]))} | {order_name(*o)} |")
    return "\n".join(out)


def table_i(gpu, opencl=False):
    rows, exp, label = ours_source(gpu, "I", opencl)
    if not rows:
        return None
    groups = next((r["groups"] for r in rows if r["experiment"] == exp), "?")
    out = [f"{device(rows)}, {label}, {groups} groups; thesis: 70 work-groups; ms", "",
           "| barriers | thesis DCB | CB | CPU | DCB/CB | CPU/CB | thesis order | "
           "ours lockfree | central | relaunch | lockfree/central | relaunch/central | our order |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, (dcb, cb, cpu) in THESIS_I.items():
        o = [pick(rows, exp, "iters", n, a, "total_ms") for a in THESIS_ALGOS]
        out.append(f"| {n} | {dcb} | {cb} | {cpu} | {fmt(dcb / cb)} | {fmt(cpu / cb)} | "
                   f"{order_name(dcb, cb, cpu)} | {fmt(o[0])} | {fmt(o[1])} | {fmt(o[2])} | "
                   f"{fmt(ratio(o[0], o[1]))} | {fmt(ratio(o[2], o[1]))} | {order_name(*o)} |")
    return "\n".join(out)


def table_j(gpu):
    rows, exp, label = ours_source(gpu, "J")
    if not rows:
        return None
    out = [f"{device(rows)}, {label}; KB (1024 bytes)", "",
           "| groups | thesis DCB | CB | CPU | ours lockfree | central | relaunch |",
           "|---|---|---|---|---|---|---|"]
    for g, (dcb, cb, cpu) in THESIS_J.items():
        o = [pick(rows, exp, "groups", g, a, "state_bytes") for a in THESIS_ALGOS]
        o = [x / 1024 if x is not None else None for x in o]
        out.append(f"| {g} | {dcb} | {cb} | {cpu} | {fmt(o[0])} | {fmt(o[1])} | {fmt(o[2])} |")
    return "\n".join(out)


def table_stencil(gpu):
    rows = read(gpu, "stencil.csv")
    if not rows:
        return None
    out = [f"{device(rows)}, `gridsync bench stencil` (2048 items, 500000 iterations, two barriers "
           f"each; ms); blog: OpenCL, its GPU unnamed; without a barrier {BLOG_NO_BARRIER_MS} ms", "",
           "| block | blog globalSync1 | globalSync2 | globalSync3 | ours naive | central | lockfree | "
           "flip | cg | relaunch | naive/blog | central/blog | lockfree/blog |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for block in (1024, 64, 32):
        t = {a: pick(rows, "stencil", "block", block, a, "total_ms", iters=500000, n=2048)
             for a in ("naive", "central", "lockfree", "flip", "cg", "relaunch")}
        blog = [BLOG[a][1][block] for a in ("naive", "central", "lockfree")]
        cells = " | ".join(("10000+" if b == 10000 else str(b)) for b in blog)
        out.append(f"| {block} | {cells} | " + " | ".join(fmt(t[a], 4) for a in t) + " | " +
                   " | ".join(fmt(ratio(t[a], b)) for a, b in zip(("naive", "central", "lockfree"), blog))
                   + " |")
    return "\n".join(out)


def table_testsync(gpu):
    rows = read(gpu, "testsync.csv")
    if not rows:
        return None
    out = [f"{device(rows)}, `gridsync demo testsync`", "",
           "| kernel | grid | elements | wrong | check |", "|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['kernel']} | {r['groups']} x {r['block']} | {r['elements']} | {r['wrong']} | "
                   f"{r['check']} |")
    return "\n".join(out)


def table_pi(gpu):
    rows = read(gpu, "pi.csv")
    if not rows:
        return None
    ways = list(dict.fromkeys(r["way"] for r in rows))
    out = [f"{device(rows)}, `gridsync bench pi`, {rows[0]['groups']} groups of {rows[0]['block']}; ms "
           "(|error| of pi at the largest step count below)", "",
           "| steps | " + " | ".join(ways) + " |", "|---" * (len(ways) + 1) + "|"]
    for steps in dict.fromkeys(int(r["steps"]) for r in rows):
        cells = [next((fmt(float(r["ms"]), 4) for r in rows if r["way"] == w and int(r["steps"]) == steps
                       and r["check"] == "pass"), "–") for w in ways]
        out.append(f"| {steps:.0e} | " + " | ".join(cells) + " |")
    last = max(int(r["steps"]) for r in rows)
    errs = {r["way"]: r["abs_error"] for r in rows if int(r["steps"]) == last}
    out.append("")
    out.append(f"|error| at {last:.0e} steps: " + ", ".join(f"{w} {e}" for w, e in errs.items()))
    return "\n".join(out)


def blocks():
    """name -> markdown, for every block of docs/results.md."""
    b = {}
    for gpu in GPUS:
        for name, fn in (("thesis-H", table_h), ("thesis-I", table_i)):
            b[f"{name}-{gpu}"] = fn(gpu)
            b[f"{name}-{gpu}-opencl"] = fn(gpu, opencl=True)
        b[f"thesis-J-{gpu}"] = table_j(gpu)
        b[f"stencil-{gpu}"] = table_stencil(gpu)
        b[f"testsync-{gpu}"] = table_testsync(gpu)
        b[f"pi-{gpu}"] = table_pi(gpu)
    placeholder = ("*Not measured yet: needs the GPU run "
                   "(`GS_GPU_ONLY=cli_thesis,cli_thesis_opencl OUT=DIR bash scripts/gpu.sh`, then "
                   "`bash scripts/import_results.sh DIR bench/results/<gpu>` and "
                   "`python3 scripts/results_tables.py --write docs/results.md`).*")
    return {k: (v if v else placeholder) for k, v in b.items()}


def write_dat(dirname):
    """Whitespace-separated data for scripts/plots.sh: one file per figure and source."""
    os.makedirs(dirname, exist_ok=True)

    def dump(name, header, lines):
        with open(os.path.join(dirname, name), "w") as f:
            f.write("# " + header + "\n")
            for line in lines:
                f.write(" ".join("nan" if x is None else str(x) for x in line) + "\n")

    dump("thesis_h.dat", "groups dcb_ns cb_ns cpu_ns", [(g, *v) for g, v in THESIS_H.items()])
    dump("thesis_i.dat", "iters dcb_ms cb_ms cpu_ms", [(n, *v) for n, v in THESIS_I.items()])
    dump("thesis_j.dat", "groups dcb_kb cb_kb cpu_kb", [(g, *v) for g, v in THESIS_J.items()])
    for gpu in GPUS:
        for app, key, xs in (("H", "groups", THESIS_H), ("I", "iters", THESIS_I), ("J", "groups", THESIS_J)):
            rows, exp, label = ours_source(gpu, app)
            if not rows:
                continue
            field = {"H": "total_ms" if exp.startswith("thesis") else "ns_per_barrier",
                     "I": "total_ms", "J": "state_bytes"}[app]
            scale = {"total_ms": 1e6 if app == "H" else 1.0, "ns_per_barrier": 1.0,
                     "state_bytes": 1 / 1024}[field]
            lines = []
            for x in xs:
                o = [pick(rows, exp, key, x, a, field) for a in THESIS_ALGOS]
                lines.append((x, *[v * scale if v is not None else None for v in o]))
            short = (f"gridsync bench thesis --appendix {app}" if exp.startswith("thesis")
                     else f"stand-in until the GPU run: gridsync bench {exp} (docs/results.md)")
            dump(f"ours_{app.lower()}_{gpu}.dat", f"{key} lockfree central relaunch | {device(rows)} | {short}",
                 lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", metavar="MD", help="rewrite the marked blocks of this file")
    ap.add_argument("--dat", metavar="DIR", help="write gnuplot data files into DIR")
    a = ap.parse_args()
    if a.dat:
        write_dat(a.dat)
        return 0
    b = blocks()
    if not a.write:
        for k, v in b.items():
            print(f"## {k}\n\n{v}\n")
        return 0
    text = open(a.write).read()
    missing = []
    for k, v in b.items():
        pat = re.compile(rf"(<!-- BEGIN {re.escape(k)} -->\n).*?(<!-- END {re.escape(k)} -->)", re.S)
        if not pat.search(text):
            missing.append(k)
            continue
        text = pat.sub(lambda m: m.group(1) + v + "\n" + m.group(2), text)
    with open(a.write, "w") as f:
        f.write(text)
    if missing:
        print("results_tables: no block in %s for: %s" % (a.write, ", ".join(missing)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
