#!/usr/bin/python3
"""Compiles models with and without fusion and prints their memory-plan
figures as the Markdown table of docs/memory-planning.md.

usage: memory_plan_table.py KILNC OUTDIR NAME=MODEL.onnx ...

For each model and fusion mode (all, none) runs
`KILNC compile MODEL -o OUTDIR/NAME.MODE.kiln --fusion=MODE --stats-json
OUTDIR/NAME.MODE.json` and prints one row from the JSON.
"""
import json
import os
import subprocess
import sys


def row(name, mode, d):
    def n(x):
        return "n/a" if x is None else f"{x:,}"

    def r(x):
        return "n/a" if x is None else f"{x:.2f}"

    return (f"| {name} | {mode} | {d['kernels']} | {d['buffers']} "
            f"({d['in_place_buffers']}) | {n(d['peak_bytes'])} | "
            f"{n(d['lower_bound_bytes'])} | {n(d['unplanned_bytes'])} | "
            f"{n(d['unplanned_kernel_buffers_bytes'])} | "
            f"{r(d['peak_over_lower_bound'])} | "
            f"{r(d['peak_over_unplanned'])} | "
            f"{r(d['peak_over_unplanned_kernel_buffers'])} |")


def main(kilnc, out, models):
    os.makedirs(out, exist_ok=True)
    print("| model | fusion | kernels | buffers (in place) | peak | "
          "lower bound | unplanned (graph) | unplanned kernel buffers | "
          "peak / lower bound | peak / unplanned | peak / kernel buffers |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for spec in models:
        name, model = spec.split("=", 1)
        for mode in ("all", "none"):
            stem = os.path.join(out, f"{name}.{mode}")
            subprocess.run([kilnc, "compile", model, "-o", stem + ".kiln",
                            f"--fusion={mode}", "--stats-json",
                            stem + ".json"], check=True,
                           stdout=subprocess.DEVNULL)
            with open(stem + ".json") as f:
                print(row(name, mode, json.load(f)), flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
