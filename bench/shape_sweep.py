#!/usr/bin/python3
"""Shape cliffs: Kiln's GFLOP/s over neighbouring sizes of one op.

Two sweeps (issue 15's acceptance): a MatMul [M, 768] x [768, 3072] for
M = 190..200 (ViT's 197 tokens sit in the middle) and a 3x3 convolution
(64 -> 64 channels, padding 1) over square maps of 25..32. Each point is an
ONNX model exported by PyTorch (random weights, fixed seed), compiled by
`kilnc compile` and timed by `kiln-run --threads 1`; the points are timed
round-robin, REPEATS times each, and each point's median is kept. A point
below (1 - TOLERANCE) of the sweep's best GFLOP/s is a cliff.

Writes OUT/shape_sweep.{json,md}. Exit status 0 when no sweep has a cliff,
1 when one does (the figures are still written), 2 for a usage error.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LATENCY = re.compile(r"median ([0-9.]+) ms")


def matmul_point(m):
    torch.manual_seed(0)
    model = nn.Linear(768, 3072, bias=False)
    return model, torch.randn(m, 768), 2 * m * 768 * 3072


def conv_point(size):
    torch.manual_seed(0)
    model = nn.Conv2d(64, 64, 3, padding=1, bias=False)
    return model, torch.randn(1, 64, size, size), 2 * 64 * 64 * 9 * size * size


SWEEPS = {
    "matmul_k768_n3072": (matmul_point, range(190, 201)),
    "conv3x3_c64": (conv_point, range(25, 33)),
}


def prepare(sweep, point, out, kilnc, flags):
    """The point's artifact and input, built once."""
    build, _ = SWEEPS[sweep]
    folder = os.path.join(out, sweep, str(point))
    os.makedirs(folder, exist_ok=True)
    model, example, flops = build(point)
    onnx_path = os.path.join(folder, "model.onnx")
    input_path = os.path.join(folder, "input.npy")
    artifact = os.path.join(folder, "model.kiln")
    if not os.path.exists(onnx_path):
        torch.onnx.export(model, (example,), onnx_path, opset_version=17,
                          input_names=["input"], output_names=["output"])
        np.save(input_path, example.numpy())
    compiled = subprocess.run([kilnc, "compile", onnx_path, "-o", artifact]
                              + flags, capture_output=True, text=True)
    if compiled.returncode != 0:
        raise RuntimeError(f"{sweep} {point}: kilnc compile failed: "
                           + compiled.stderr.strip())
    return dict(point=point, flops=flops, artifact=artifact,
                input=input_path, times=[])


def time_once(kiln_run, entry, iterations):
    result = subprocess.run(
        [kiln_run, entry["artifact"], "--input", "input=" + entry["input"],
         "--threads", "1", "--warmup", "2", "--iterations", str(iterations),
         "--output-dir", os.path.dirname(entry["artifact"])],
        capture_output=True, text=True)
    match = LATENCY.search(result.stdout)
    if result.returncode != 0 or not match:
        raise RuntimeError(f"kiln-run {entry['artifact']} failed: "
                           + (result.stderr or result.stdout).strip())
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "build",
                                                      "bench-sweep"))
    parser.add_argument("--kilnc", default=os.path.join(ROOT, "build", "bin",
                                                        "kilnc"))
    parser.add_argument("--kiln-run", default=os.path.join(ROOT, "build",
                                                           "bin", "kiln-run"))
    parser.add_argument("--only", nargs="*", choices=sorted(SWEEPS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--tolerance", type=float, default=0.15)
    parser.add_argument("--compile-flag", action="append", default=[],
                        help="passed to kilnc compile (repeatable)")
    args = parser.parse_args()
    if args.repeats < 1 or args.iterations < 1:
        parser.error("--repeats and --iterations must be at least 1")

    results, cliff = {}, False
    for sweep in args.only or sorted(SWEEPS):
        entries = [prepare(sweep, point, args.out, args.kilnc,
                           args.compile_flag)
                   for point in SWEEPS[sweep][1]]
        for repeat in range(args.repeats):
            # Round-robin, starting one further each time: drift in the
            # machine's speed spreads over every point.
            order = entries[repeat % len(entries):] + \
                entries[:repeat % len(entries)]
            for entry in order:
                entry["times"].append(time_once(args.kiln_run, entry,
                                                args.iterations))
        for entry in entries:
            entry["median_ms"] = statistics.median(entry["times"])
            entry["gflops"] = entry["flops"] / entry["median_ms"] / 1e6
        best = max(entry["gflops"] for entry in entries)
        for entry in entries:
            entry["of_best"] = entry["gflops"] / best
        worst = min(entries, key=lambda entry: entry["of_best"])
        bad = worst["of_best"] < 1 - args.tolerance
        cliff |= bad
        results[sweep] = dict(points=[
            {k: e[k] for k in ("point", "median_ms", "gflops", "of_best")}
            for e in entries], best_gflops=best, worst=worst["point"],
            worst_of_best=worst["of_best"], cliff=bad)
        print(f"{sweep}: best {best:.1f} GFLOP/s; worst point {worst['point']}"
              f" at {100 * worst['of_best']:.1f}% of it"
              + (" -- a cliff" if bad else ""))

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "shape_sweep.json"), "w") as f:
        json.dump(results, f, indent=1)
    lines = []
    for sweep, result in results.items():
        lines += [f"### {sweep}", "", "| point | median ms | GFLOP/s | of best |",
                  "|---|---|---|---|"]
        lines += [f"| {p['point']} | {p['median_ms']:.3f} | {p['gflops']:.1f}"
                  f" | {100 * p['of_best']:.1f}% |" for p in result["points"]]
        lines.append("")
    with open(os.path.join(args.out, "shape_sweep.md"), "w") as f:
        f.write("\n".join(lines))
    print("wrote", os.path.join(args.out, "shape_sweep.md"))
    return 1 if cliff else 0


if __name__ == "__main__":
    sys.exit(main())
