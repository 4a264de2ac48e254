#!/usr/bin/env python3
"""bench/micro/ncu_sweep_samples.py SOURCE.csv...: Nsight Compute's source page (SASS,
`ncu -i R --page source --print-source sass --csv`, as bench/micro/ncu_jacobi.sh writes it)
of the Jacobi kernels, summed in two parts per profiled launch: the sweep loop (the loop
around the 5-point update's `FMUL ..., 0.25`, as sweep_loop.awk finds it) and the rest of
the kernel. Per part: the warp-state samples by stall reason, and for the loop its fixed
stall cycles (the control words are not on this page: sweep_loop.awk reads them from
cuobjdump). Which reason grows where one kernel's sweeps are slower than another's:
"wait" is the fixed latency the compiler wrote between dependent instructions."""
import csv
import re
import sys


def launches(path):
    """Each profiled launch's rows (the page repeats its header per launch)."""
    out, name, head = [], None, None
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row:
                continue
            if row[0] == "Kernel Name":
                name, head = row[1], None
                out.append((name, []))
            elif row[0] == "Address":
                head = row
            elif head and out:
                out[-1][1].append(dict(zip(head, row)))
    return out


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def sweep_range(rows):
    addr = [int(r["Address"], 16) for r in rows]
    fmul = next(i for i, r in enumerate(rows) if "FMUL" in r["Source"] and "0.25" in r["Source"])
    for i in range(fmul, len(rows)):
        m = re.search(r"BRA (0x[0-9a-f]+)", rows[i]["Source"])
        if m:
            target = int(m.group(1), 16)
            if target < addr[fmul] - addr[0]:  # relative to the function's start
                target += addr[0]
            if target < addr[fmul]:
                return target, addr[i]
    raise ValueError("no sweep loop")


def main():
    for path in sys.argv[1:]:
        for n, (name, rows) in enumerate(launches(path)):
            lo, hi = sweep_range(rows)
            reasons = [c for c in rows[0] if c.startswith("stall_") and "Not Issued" not in c]
            parts = {"loop": dict.fromkeys(reasons, 0.0), "rest": dict.fromkeys(reasons, 0.0)}
            for r in rows:
                part = parts["loop" if lo <= int(r["Address"], 16) <= hi else "rest"]
                for c in reasons:
                    part[c] += number(r[c])
            for part, counts in parts.items():
                total = sum(counts.values())
                top = ", ".join("%s %d" % (c[6:], v) for c, v in
                                sorted(counts.items(), key=lambda kv: -kv[1]) if v >= 0.001 * total)
                print("%s launch %d %s: %d samples (%s)" % (name.split("(")[0], n, part, total, top))


if __name__ == "__main__":
    main()
