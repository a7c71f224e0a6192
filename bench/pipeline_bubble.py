#!/usr/bin/python3
"""Pipeline parallelism on CPU ranks: the measured bubble and the cost model's.

Compiles MODEL once for one device and once as a pipeline of STAGES stages
over MICRO micro-batches (`kilnc compile --devices STAGES --parallel
pipeline --micro-batches MICRO`), then times them interleaved with
`kiln-run` (one rank on one thread; STAGES rank threads of one thread each),
REPEATS rounds of ITERATIONS runs each. kiln-run reports each stage's busy
time and the run's wall time; the measured bubble is 1 - sum(busy) /
(STAGES x wall).

The cost model predicts from what the compiler reports (`--stats-json`:
each stage's FLOPs per micro-batch and the bytes it sends):

  rate = FLOPs of the one-rank program / its measured time  (calibration)
  t_s  = FLOPs_s / rate + sent_s / BANDWIDTH                 (per micro-batch)
  T    = sum(t) + (MICRO - 1) max(t)                         (GPipe, forward)
  bubble = 1 - MICRO sum(t) / (STAGES T);  speed-up = one-rank time / T

BANDWIDTH is the in-process bus bandwidth `kiln-comm-bench` measures.

Usage: pipeline_bubble.py MODEL.onnx --input NAME=FILE.npy [--stages 2]
       [--micro-batches 4] [--repeats 5] [--iterations 3] [--out DIR]
Prints a JSON summary and writes OUT/pipeline_bubble.json.
"""
import argparse
import json
import os
import re
import statistics

from sharding_speedup import BUS, LATENCY, ROOT, run

PIPELINE = re.compile(r"busy ([0-9., ]+) ms of ([0-9.]+) ms a run; "
                      r"bubble ([0-9.]+)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--stages", type=int, default=2)
    parser.add_argument("--micro-batches", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "bench"))
    args = parser.parse_args()
    bin_dir = os.path.join(args.build_dir, "bin")
    kilnc, kiln_run = (os.path.join(bin_dir, t) for t in ("kilnc", "kiln-run"))
    os.makedirs(args.out, exist_ok=True)
    one = os.path.join(args.out, "pipeline_1.kiln")
    staged = os.path.join(args.out, f"pipeline_{args.stages}.kiln")
    one_stats, staged_stats = one + ".json", staged + ".json"
    run([kilnc, "compile", args.model, "-o", one, "--stats-json", one_stats])
    run([kilnc, "compile", args.model, "--devices", str(args.stages),
         "--parallel", "pipeline", "--micro-batches", str(args.micro_batches),
         "-o", staged, "--stats-json", staged_stats])
    inputs = [a for spec in args.input for a in ("--input", spec)]
    common = ["--warmup", "1", "--iterations", str(args.iterations)]

    rounds = []
    for _ in range(args.repeats):
        t1 = float(LATENCY.search(run(
            [kiln_run, one, *inputs, *common, "--threads", "1"])).group(1))
        out = run([kiln_run, staged, *inputs, *common])
        busy, wall, bubble = PIPELINE.search(out).groups()
        rounds.append({
            "one_rank_ms": t1,
            "pipeline_ms": float(LATENCY.search(out).group(1)),
            "busy_ms": [float(b) for b in busy.split(",")],
            "wall_ms": float(wall), "bubble": float(bubble)})

    bus = float(BUS.search(run([os.path.join(bin_dir, "kiln-comm-bench"),
                                "--backend", "in-process", "--ranks",
                                str(args.stages)])).group(1))
    with open(one_stats) as f:
        flops_one = json.load(f)["flops"]
    with open(staged_stats) as f:
        stats = json.load(f)
    t1 = statistics.median(r["one_rank_ms"] for r in rounds)
    rate = flops_one / t1  # FLOPs per ms
    sent = stats["pipeline"]["send_bytes_per_micro_batch"]
    stage_ms = [rank["plan"]["flops"] / rate + sent[s] / (bus * 1e6)
                for s, rank in enumerate(stats["ranks"])]
    m, p = args.micro_batches, args.stages
    total = sum(stage_ms) + (m - 1) * max(stage_ms)
    predicted_bubble = 1 - m * sum(stage_ms) / (p * total)
    measured_bubble = statistics.median(r["bubble"] for r in rounds)
    pipeline_ms = statistics.median(r["pipeline_ms"] for r in rounds)
    summary = {
        "model": args.model, "stages": p, "micro_batches": m,
        "one_rank_ms": t1, "pipeline_ms": pipeline_ms,
        "measured_speedup": statistics.median(
            r["one_rank_ms"] / r["pipeline_ms"] for r in rounds),
        "predicted_speedup": t1 / total,
        "measured_bubble": measured_bubble,
        "predicted_bubble": predicted_bubble,
        "gpipe_bubble": (p - 1) / (m + p - 1),
        "bubble_prediction_error":
            abs(predicted_bubble - measured_bubble) / measured_bubble,
        "predicted_stage_ms_per_micro_batch": stage_ms,
        "measured_stage_ms_per_micro_batch": [
            statistics.median(r["busy_ms"][s] for r in rounds) / m
            for s in range(p)],
        "stage_flops_per_micro_batch": [r["plan"]["flops"]
                                        for r in stats["ranks"]],
        "sent_bytes_per_micro_batch": sent, "bus_bw_gbs": bus,
        "rounds": rounds,
    }
    with open(os.path.join(args.out, "pipeline_bubble.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(json.dumps({k: v for k, v in summary.items() if k != "rounds"},
                     indent=2))


if __name__ == "__main__":
    main()
