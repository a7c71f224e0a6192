#!/usr/bin/python3
"""Collective fusion on CPU ranks: HEADS small all-reduces sent as one.

Writes a model of HEADS independent row-parallel heads (8 x 64 activations,
each head a [64, 16] weight and a tanh: on 2 ranks HEADS partial sums of
512 bytes each), compiles it for 2 ranks with fusion (one all-reduce of
HEADS x 512 bytes) and with `--fuse-collectives-below 0` (HEADS
all-reduces), and times both interleaved, REPEATS rounds of ITERATIONS runs
each, with `kiln-run` in one process (rank threads) and under `mpirun -np 2`
(one process per rank). Prints the medians and apart/fused ratios as JSON.

Usage: collective_fusion.py [--heads 8] [--repeats 3] [--iterations 3000]
       [--bin build/bin] [--out DIR]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile

import numpy as np


def write_model(path, heads):
    outs = ", ".join(["tensor<8x16xf32>"] * heads)
    lines = [
        "func.func @heads(%x: tensor<8x64xf32>) -> (" + outs + ") {",
        "  %w = kiln.constant dense<0.01> : tensor<64x64xf32>",
        "  %h = kiln.matmul %x, %w : (tensor<8x64xf32>, tensor<64x64xf32>)"
        " -> tensor<8x64xf32>",
        "  %r = kiln.relu %h : tensor<8x64xf32>",
    ]
    for i in range(heads):
        lines += [
            f"  %w{i} = kiln.constant dense<{0.01 * (i + 1):.2f}>"
            " : tensor<64x16xf32>",
            f"  %a{i} = kiln.matmul %r, %w{i} : (tensor<8x64xf32>,"
            " tensor<64x16xf32>) -> tensor<8x16xf32>",
            f"  %t{i} = kiln.tanh %a{i} : tensor<8x16xf32>",
        ]
    lines.append("  return " + ", ".join(f"%t{i}" for i in range(heads)) +
                 " : " + outs)
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def median_ms(command):
    text = subprocess.run(command, check=True, capture_output=True,
                          text=True).stdout
    match = re.search(r"median ([0-9.]+) ms", text)
    if not match:
        raise SystemExit("no median in: " + text)
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--out")
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="kiln-fusion-")
    os.makedirs(out, exist_ok=True)
    model = os.path.join(out, "heads.mlir")
    write_model(model, args.heads)
    x = os.path.join(out, "x.npy")
    np.save(x, np.random.RandomState(0).randn(8, 64).astype(np.float32))
    kilnc = os.path.join(args.bin, "kilnc")
    run = os.path.join(args.bin, "kiln-run")
    variants = {"fused": [], "apart": ["--fuse-collectives-below", "0"]}
    for name, flags in variants.items():
        subprocess.run([kilnc, "compile", model, "--devices", "2", "-o",
                        os.path.join(out, name + ".kiln")] + flags,
                       check=True, capture_output=True)
    mpirun = shutil.which("mpirun")
    times = {(v, m): [] for v in variants for m in ("in_process", "mpirun")}
    for _ in range(args.repeats):
        for name in variants:
            common = [os.path.join(out, name + ".kiln"), "--input",
                      "arg0=" + x, "--output-dir", os.path.join(out, name),
                      "--iterations", str(args.iterations), "--warmup", "100"]
            times[(name, "in_process")].append(median_ms([run] + common))
            if mpirun:
                times[(name, "mpirun")].append(median_ms(
                    [mpirun, "--allow-run-as-root", "--oversubscribe", "-np",
                     "2", run] + common))
    report = {"heads": args.heads, "all_reduce_bytes_each": 512}
    for mode in ("in_process", "mpirun"):
        if not times[("fused", mode)]:
            continue
        fused = statistics.median(times[("fused", mode)])
        apart = statistics.median(times[("apart", mode)])
        report[mode] = {"fused_ms": fused, "apart_ms": apart,
                        "apart_over_fused": round(apart / fused, 2)}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
