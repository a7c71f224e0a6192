#!/usr/bin/env python3
"""The simulated-vs-real check of the resource manager (issue 21).

Serves two real models with kiln-serve on CPU devices (one pinned core
each), offers them Poisson load at a given fraction of batch-1 capacity
from an open-loop Node client, and replays the very same arrivals (as the
server logged them) through kiln-sim, configured by the server itself
(--write-sim-config, rewritten at exit: the latencies it measured at load
and refined while serving, footprints, pool options). Prints
SLO attainment and p99 latency of both, overall and per priority level.

usage: serve_vs_sim.py --build-dir build [--load 0.6] [--duration-s 20]
                       [--devices 2] [--slo-x 5] [--seed 1] [--out DIR]
"""
import argparse
import json
import os
import random
import signal
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def mlp(name, layers, batch=64, features=16, width=768, seed=0):
    """An MLIR MLP on [batch, features]: one layer up to `width`, then
    `layers` GEMM+ReLU layers of width x width sharing one random weight
    matrix (a hex literal). Small inputs keep the HTTP cost of a request
    small beside its compute. Random, not splat: a splat-weight contraction
    reduces to row sums (ReduceBeforeBroadcast), far cheaper than a real
    layer."""
    rng = random.Random(seed)

    def literal(rows, cols):
        values = [rng.uniform(-0.03, 0.03) for _ in range(rows * cols)]
        data = struct.pack("<%df" % len(values), *values).hex().upper()
        return f'dense<"0x{data}"> : tensor<{rows}x{cols}xf32>'

    t_in = f"tensor<{batch}x{features}xf32>"
    t = f"tensor<{batch}x{width}xf32>"
    bias = f"tensor<{width}xf32>"
    lines = [f'func.func @{name}(%x: {t_in} {{kiln.name = "x"}}) -> ({t} {{kiln.name = "y"}}) {{',
             f"  %w0 = kiln.constant {literal(width, features)}",
             f"  %w = kiln.constant {literal(width, width)}",
             f"  %b = kiln.constant dense<0.01> : {bias}",
             f"  %h = kiln.gemm %x, %w0, %b {{trans_b}} : ({t_in}, tensor<{width}x{features}xf32>, {bias}) -> {t}",
             f"  %a = kiln.relu %h : {t}"]
    value = "%a"
    for i in range(layers):
        lines.append(f"  %h{i} = kiln.gemm {value}, %w, %b {{trans_b}} : "
                     f"({t}, tensor<{width}x{width}xf32>, {bias}) -> {t}")
        lines.append(f"  %a{i} = kiln.relu %h{i} : {t}")
        value = f"%a{i}"
    lines += [f"  return {value} : {t}", "}"]
    return "\n".join(lines) + "\n", {"name": "x", "datatype": "FP32",
                                     "shape": [batch, features],
                                     "bytes": batch * features * 4}


def percentile(values, q):
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summarise(rows):
    """Attainment (met / arrived) and p99 of completed, from log rows."""
    met = [r for r in rows if r["outcome"] == "completed" and
           (r["deadline"] < 0 or r["finish"] <= r["deadline"])]
    done = [r["finish"] - r["arrival"] for r in rows
            if r["outcome"] == "completed"]
    return {"arrivals": len(rows),
            "slo_attainment": len(met) / max(1, len(rows)),
            "p99_ms": percentile(done, 0.99) / 1000.0,
            "p50_ms": percentile(done, 0.50) / 1000.0}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--load", type=float, default=0.6)
    parser.add_argument("--duration-s", type=float, default=20)
    parser.add_argument("--devices", type=int, default=2)
    parser.add_argument("--cores", default="",
                        help="cores for the devices (kiln-serve --cores); "
                             "the client runs on the others")
    parser.add_argument("--slo-x", type=float, default=5)
    parser.add_argument("--high-share", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="kiln")
    parser.add_argument("--variants", default="",
                        help="batch-size variants, e.g. 4,16: each request "
                             "is then one row ([1, features], width 1024) "
                             "and kiln-serve batches rows into NAME@bN")
    parser.add_argument("--out", default="/tmp/kiln-serve-vs-sim")
    args = parser.parse_args()
    bin_dir = os.path.join(os.path.abspath(args.build_dir), "bin")
    out = os.path.abspath(args.out)
    repo = os.path.join(out, "repo")
    os.makedirs(repo, exist_ok=True)

    inputs = {}
    variants = [int(v) for v in args.variants.split(",") if v]
    for stale in os.listdir(repo):
        os.remove(os.path.join(repo, stale))
    for name, layers in (("mlp4", 4), ("mlp8", 8)):
        # One-row requests (memory-bound GEMVs) when batching into variants.
        shape = dict(batch=1, width=1024) if variants else {}
        for rows in [0] + variants:
            if rows:
                shape["batch"] = rows
            text, model_input = mlp(name, layers, **shape)
            if not rows:
                inputs[name] = model_input
            file = name + (f"@b{rows}" if rows else "")
            source = os.path.join(out, file + ".mlir")
            open(source, "w").write(text)
            subprocess.run([os.path.join(bin_dir, "kilnc"), "compile", source,
                            "-o", os.path.join(repo, file + ".kiln")],
                           check=True, stdout=subprocess.DEVNULL,
                           env=dict(os.environ, KILN_CACHE_DIR="off"))
    json.dump(inputs, open(os.path.join(out, "inputs.json"), "w"))

    port_file = os.path.join(out, "port")
    log = os.path.join(out, "requests.csv")
    sim_config = os.path.join(out, "sim.json")
    for path in (port_file, log):
        if os.path.exists(path):
            os.remove(path)
    server = subprocess.Popen(
        [os.path.join(bin_dir, "kiln-serve"), "--model-repository", repo,
         "--port", "0", "--port-file", port_file, "--devices",
         str(args.devices), "--pin", "--slo-x", str(args.slo_x)] +
        (["--cores", args.cores] if args.cores else []) + [
         "--policy", args.policy, "--timing-runs", "20",
         "--request-log", log, "--write-sim-config", sim_config],
        stdout=subprocess.DEVNULL)
    while not os.path.exists(port_file):
        if server.poll() is not None:
            sys.exit("kiln-serve did not start")
        time.sleep(0.05)
    url = "http://127.0.0.1:" + open(port_file).read().strip()

    # Poisson arrivals at `load` of batch-1 capacity, split evenly by
    # device time between the models (the simulator's definition).
    config = json.load(open(sim_config))
    latencies = {m["name"]: m["latency_ms"]["1"] for m in config["models"]}
    rng = random.Random(args.seed)
    per_model_busy = args.load * args.devices / len(latencies)
    schedule = []
    for name, ms in latencies.items():
        rate = per_model_busy / ms  # requests per ms
        t = rng.expovariate(rate)
        while t < args.duration_s * 1000:
            priority = 0 if rng.random() < args.high_share else 1
            schedule.append((t, name, priority))
            t += rng.expovariate(rate)
    schedule.sort()
    schedule_path = os.path.join(out, "schedule.csv")
    with open(schedule_path, "w") as f:
        for t, name, priority in schedule:
            f.write(f"{t:.3f},{name},{priority}\n")
    device_cores = {int(c) for c in args.cores.split(",") if c} or \
        set(range(args.devices))
    free = sorted(set(range(os.cpu_count())) - device_cores)
    pin_client = ["taskset", "-c", ",".join(map(str, free))] if free else []
    client = subprocess.run(
        pin_client + ["node", os.path.join(HERE, "open_loop.mjs"), url, schedule_path,
         os.path.join(out, "inputs.json")],
        check=True, stdout=subprocess.PIPE, text=True)
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)

    rows = []
    for line in open(log).read().splitlines()[1:]:
        f = line.split(",")
        rows.append({"model": f[1], "priority": int(f[2]),
                     "arrival": int(f[3]), "deadline": int(f[4]),
                     "finish": int(f[5]), "outcome": f[6],
                     "exec_start": int(f[9]), "exec_end": int(f[10])})
    rows.sort(key=lambda r: r["arrival"])
    # The simulator replays the arrivals the server saw, with their SLOs.
    first = rows[0]["arrival"]
    trace = os.path.join(out, "trace.csv")
    with open(trace, "w") as f:
        for r in rows:
            slo = "" if r["deadline"] < 0 else \
                ",%.3f" % ((r["deadline"] - r["arrival"]) / 1000.0)
            f.write("%.3f,%s,%d%s\n" % ((r["arrival"] - first) / 1000.0,
                                        r["model"], r["priority"], slo))
    sim = subprocess.run(
        [os.path.join(bin_dir, "kiln-sim"), sim_config, "--set",
         'arrivals={"process":"trace","path":"%s"}' % trace],
        check=True, stdout=subprocess.PIPE, text=True)
    report = json.loads(sim.stdout)
    learned = {m["name"]: m["latency_ms"]["1"]
               for m in json.load(open(sim_config))["models"]}

    result = {"load": args.load, "devices": args.devices,
              "policy": args.policy, "variants": variants,
              "client": json.loads(client.stdout),
              "measured_latency_ms": latencies,
              "learned_latency_ms": learned,
              "real": {"overall": summarise(rows)},
              "simulated": {"overall": {
                  k: report["overall"][k]
                  for k in ("arrivals", "slo_attainment", "p99_ms", "p50_ms")}}}
    for level in (0, 1):
        result["real"]["priority%d" % level] = summarise(
            [r for r in rows if r["priority"] == level])
        sim_level = report["by_priority"][level]
        result["simulated"]["priority%d" % level] = {
            k: sim_level[k]
            for k in ("arrivals", "slo_attainment", "p99_ms", "p50_ms")}
    span_s = (rows[-1]["arrival"] - rows[0]["arrival"]) / 1e6
    result["arrival_span_s"] = span_s
    result["arrivals_per_s"] = len(rows) / max(1e-9, span_s)
    result["device_busy_fraction"] = sum(
        r["exec_end"] - r["exec_start"] for r in rows) / 1e6 / max(
        1e-9, span_s) / args.devices
    real, simulated = result["real"]["overall"], result["simulated"]["overall"]
    result["attainment_gap_points"] = 100 * abs(real["slo_attainment"] -
                                                simulated["slo_attainment"])
    result["p99_ratio"] = real["p99_ms"] / max(1e-9, simulated["p99_ms"])
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
