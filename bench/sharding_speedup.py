#!/usr/bin/python3
"""Tensor (or sequence) parallelism on CPU ranks: measured speed-up and the cost model's.

Compiles MODEL once for one device and once for RANKS ranks
(`kilnc compile --devices RANKS --parallel STRATEGY`), then times them
interleaved with `kiln-run` (one rank on one thread; RANKS rank threads of
one thread each, in one process), REPEATS rounds of ITERATIONS runs each.
The speed-up is the median over rounds of (one rank / RANKS ranks) within a
round (paired, so slow drifts of the machine's load cancel).

The cost model predicts the ranks' time from what the compiler reports
(`--stats-json`: each rank's FLOPs and its collectives' bytes):

  rate   = FLOPs of the one-rank program / its measured time   (calibration)
  T_rank = max over ranks (FLOPs_r / rate)
           + sum over collectives (ALPHA + bytes * F / BUS_BW)

with F = 2 (N - 1) / N for an all-reduce, (N - 1) / N for a reduce-scatter
and N - 1 for an all-gather (bytes being what a rank sends); BUS_BW is
the in-process all-reduce bus bandwidth measured by
`kiln-comm-bench` on this machine and ALPHA a per-collective latency
(default 20 us). The prediction is one-rank time / T_rank.

Usage: sharding_speedup.py MODEL.onnx --input NAME=FILE.npy [--ranks 2]
       [--strategy tensor] [--repeats 7] [--iterations 5] [--out DIR]
Prints a JSON summary and writes OUT/sharding_speedup.json.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LATENCY = re.compile(r"median ([0-9.]+) ms")
BUS = re.compile(r"busBw ([0-9.]+) GB/s")


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({result.returncode}):\n"
                 f"{result.stdout}{result.stderr}")
    return result.stdout


def median_ms(kiln_run, artifact, inputs, iterations, extra):
    out = run([kiln_run, artifact, *inputs, "--warmup", "1", "--iterations",
               str(iterations), *extra])
    return float(LATENCY.search(out).group(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--strategy", default="tensor")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--alpha-us", type=float, default=20.0)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "bench"))
    args = parser.parse_args()
    bin_dir = os.path.join(args.build_dir, "bin")
    kilnc, kiln_run = (os.path.join(bin_dir, t) for t in ("kilnc", "kiln-run"))
    os.makedirs(args.out, exist_ok=True)
    one = os.path.join(args.out, "sharding_1.kiln")
    many = os.path.join(args.out, f"sharding_{args.ranks}.kiln")
    one_stats, many_stats = one + ".json", many + ".json"
    run([kilnc, "compile", args.model, "-o", one, "--stats-json", one_stats])
    run([kilnc, "compile", args.model, "--devices", str(args.ranks),
         "--parallel", args.strategy, "-o", many, "--stats-json", many_stats])
    inputs = [a for spec in args.input for a in ("--input", spec)]

    rounds = []
    for _ in range(args.repeats):
        t1 = median_ms(kiln_run, one, inputs, args.iterations, ["--threads", "1"])
        tn = median_ms(kiln_run, many, inputs, args.iterations, [])
        rounds.append({"one_rank_ms": t1, "ranks_ms": tn, "speedup": t1 / tn})

    bus = float(BUS.search(run([os.path.join(bin_dir, "kiln-comm-bench"),
                                "--backend", "in-process", "--ranks",
                                str(args.ranks)])).group(1))
    with open(one_stats) as f:
        flops_one = json.load(f)["flops"]
    with open(many_stats) as f:
        ranks = json.load(f)["ranks"]
    t1 = statistics.median(r["one_rank_ms"] for r in rounds)
    rate = flops_one / t1  # FLOPs per ms
    n = args.ranks
    compute = max(r["plan"]["flops"] for r in ranks) / rate
    comm = 0.0
    collectives = ranks[0]["collectives"]
    # Bytes each rank moves over the bus (NCCL's bus-bandwidth convention),
    # from the bytes a rank sends: an all-reduce 2 (N-1)/N of them, a
    # reduce-scatter (N-1)/N (it sends the whole), an all-gather N-1 (it
    # sends its shard).
    bus_factor = {"all_reduce": 2 * (n - 1) / n,
                  "reduce_scatter": (n - 1) / n,
                  "all_gather": n - 1}
    for kind, figures in collectives.items():
        comm += figures["count"] * args.alpha_us / 1000.0
        comm += figures["bytes"] * bus_factor.get(kind, 1) / (bus * 1e6)  # ms
    predicted = t1 / (compute + comm)
    measured = statistics.median(r["speedup"] for r in rounds)
    summary = {
        "model": args.model, "ranks": n, "strategy": args.strategy,
        "one_rank_ms": t1,
        "ranks_ms": statistics.median(r["ranks_ms"] for r in rounds),
        "measured_speedup": measured,
        "predicted_speedup": predicted,
        "prediction_error": abs(predicted - measured) / measured,
        "model_terms_ms": {"compute": compute, "communication": comm},
        "flops": {"one_rank": flops_one,
                  "per_rank": [r["plan"]["flops"] for r in ranks]},
        "collectives_per_rank": collectives, "bus_bw_gbs": bus,
        "rounds": rounds,
    }
    with open(os.path.join(args.out, "sharding_speedup.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(json.dumps({k: v for k, v in summary.items() if k != "rounds"},
                     indent=2))


if __name__ == "__main__":
    main()
