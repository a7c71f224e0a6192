#!/usr/bin/python3
"""Kiln against ONNX Runtime and PyTorch, side by side, one thread each.

For every workload: generate it (bench/workloads.py) if missing or stale,
compile/load it in every engine, check that every engine's outputs agree
with PyTorch's, then time the engines round-robin: each repetition runs one
batch per engine (a few untimed warm-up runs, then back-to-back timed runs)
and the engine that goes first rotates. Writes OUT/results.{json,md,png}.

Exit status: 0 when every engine ran every workload and all outputs agree,
1 otherwise (the results are still written), 2 for a usage error.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import blas  # noqa: E402
import engine_kiln  # noqa: E402
import engine_ort  # noqa: E402
import report  # noqa: E402
import stats  # noqa: E402

ALL_ENGINES = ("kiln", "ort", "torch")


class Workload:
    def __init__(self, folder):
        self.folder = folder
        with open(os.path.join(folder, "workload.json")) as f:
            self.manifest = json.load(f)
        self.name = self.manifest["name"]
        self.size = self.manifest["size"]
        self.inputs = self.manifest["inputs"]
        self.outputs = self.manifest["outputs"]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "build", "bench"),
                   help="output folder (default: build/bench)")
    p.add_argument("--size", choices=("full", "smoke"), default="full")
    p.add_argument("--only", nargs="+", metavar="WORKLOAD",
                   help="run these workloads only")
    p.add_argument("--engines", default="auto",
                   help="comma-separated subset of kiln,ort,torch, or auto "
                   "(every one available); a listed engine that is not "
                   "available is an error")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                   help="Kiln build folder with bin/kilnc and bin/kiln-run")
    p.add_argument("--kilnc", help="kilnc binary (default: BUILD/bin/kilnc)")
    p.add_argument("--kiln-run",
                   help="kiln-run binary (default: beside kilnc)")
    p.add_argument("--kiln-revision",
                   help="what to call the measured Kiln in the report "
                   "(default: git describe of the checkout holding kilnc)")
    p.add_argument("--node-modules", help="node_modules folder holding "
                   "onnxruntime-node (default: $KILN_ORT_NODE_MODULES, then "
                   "~/.cache/kiln-bench/node_modules)")
    p.add_argument("--reps", type=int, default=30,
                   help="repetitions (batches per engine) per workload")
    p.add_argument("--min-reps", type=int, default=10,
                   help="fewest repetitions when --budget-s cuts them")
    p.add_argument("--budget-s", type=float, default=90,
                   help="seconds of timing per workload that cut --reps "
                   "down (never below --min-reps)")
    p.add_argument("--batch-ms", type=float, default=25,
                   help="aim for timed batches this long (runs per batch = "
                   "batch-ms / latency, 1 to 200)")
    p.add_argument("--warmup", type=int, default=1,
                   help="untimed runs before each batch")
    p.add_argument("--no-warmup-above-ms", type=float, default=250,
                   help="no untimed runs before batches of an engine whose "
                   "single run takes longer than this (the first run's "
                   "extra cost is then negligible)")
    p.add_argument("--compiles", type=int, default=2,
                   help="kilnc compiles per workload (first cold, then warm)")
    p.add_argument("--torch-blas", choices=("openblas", "system"),
                   default="openblas",
                   help="PyTorch's BLAS: OpenBLAS when bench/setup.sh "
                   "unpacked it (or it is installed), or the system's "
                   "libblas.so.3 (see bench/blas.py)")
    p.add_argument("--threads", default="1",
                   help="comma-separated thread counts, e.g. 1,2: every "
                   "engine runs on each (Kiln: kiln-run --threads N; ORT: "
                   "intraOpNumThreads N; PyTorch: set_num_threads N); "
                   "engines on N > 1 are named <engine>_t<N>")
    p.add_argument("--regenerate", action="store_true",
                   help="export the workloads again even if up to date")
    return p.parse_args(argv)


def source_digest():
    """Workloads are regenerated when their generator changes."""
    digest = hashlib.sha256()
    for path in (os.path.join(HERE, "workloads.py"),
                 os.path.join(ROOT, "test", "e2e", "models", "export_models.py")):
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


def ensure_workloads(names, size, folder, regenerate):
    """Exports the workloads that are missing or older than the generator."""
    import workloads
    digest = source_digest()
    for name in names:
        manifest = os.path.join(folder, name, "workload.json")
        stamp = None
        if os.path.exists(manifest):
            with open(manifest) as f:
                stamp = json.load(f).get("generator")
        if regenerate or stamp != digest:
            print(f"bench: generating {name} ({size})", flush=True)
            workloads.generate(name, size, folder, generator=digest)
    return [Workload(os.path.join(folder, name)) for name in names]


def make_engines(args, requested, work_dir):
    """(engines, unavailable): the engine objects in column order, one per
    engine and thread count."""
    engines, unavailable = [], {}
    for threads in args.thread_counts:
        more, missing = make_engines_on(args, requested, work_dir, threads)
        engines += more
        unavailable.update(missing)
    return engines, unavailable


def make_engines_on(args, requested, work_dir, threads):
    suffix = "" if threads == 1 else f"_t{threads}"
    on = "" if threads == 1 else f", {threads} threads"
    engines, unavailable = [], {}
    if "kiln" in requested:
        kilnc = args.kilnc or os.path.join(args.build_dir, "bin", "kilnc")
        kiln_run = args.kiln_run or os.path.join(os.path.dirname(kilnc),
                                                 "kiln-run")
        if os.access(kilnc, os.X_OK) and os.access(kiln_run, os.X_OK):
            features = engine_kiln.detect_features(kilnc)
            engines.append(engine_kiln.KilnEngine(
                kilnc, kiln_run, work_dir, name="kiln" + suffix,
                label="Kiln" + on, stats_json=features["stats_json"],
                compiles=args.compiles if threads == 1 else 1,
                run_flags=["--threads", str(threads)],
                compile_cache=features["compile_cache"]))
            # The unfused A/B column on one thread only.
            if features["fusion"] and threads == 1:
                engines.append(engine_kiln.KilnEngine(
                    kilnc, kiln_run, work_dir, name="kiln_nofusion",
                    label="Kiln unfused", compile_flags=["--fusion=none"],
                    stats_json=features["stats_json"],
                    compiles=args.compiles,
                    run_flags=["--threads", "1"]))
        else:
            unavailable["kiln"] = f"{kilnc} or {kiln_run} not built"
    if "ort" in requested:
        node_modules = engine_ort.find_node_modules(args.node_modules)
        if node_modules:
            engines.append(engine_ort.OrtEngine(node_modules, threads))
        else:
            unavailable["ort"] = ("onnxruntime-node not installed (see "
                                  "docs/benchmarks.md)")
    if "torch" in requested:
        try:
            import engine_torch
            engines.append(engine_torch.TorchEngine(threads))
        except ImportError as error:
            unavailable["torch"] = f"PyTorch: {error}"
    return engines, unavailable


def check_outputs(workload, engines, results, out_dir):
    """Every engine's outputs against PyTorch's reference (from export)."""
    agree = True
    for engine in engines:
        entry = results[engine.name]
        if "error" in entry:
            continue
        try:
            paths = engine.outputs(workload, os.path.join(
                out_dir, engine.name, workload.name))
            entry["outputs_paths"] = paths
            checks = {}
            for name in workload.outputs:
                actual = np.load(paths[name])
                expected = np.load(os.path.join(workload.folder, "ref",
                                                name + ".npy"))
                checks[name] = stats.compare(actual, expected,
                                             workload.manifest["tol"])
            entry["outputs"] = checks
            if not all(c["ok"] for c in checks.values()):
                agree = False
                entry["error"] = "outputs differ from PyTorch's: " + \
                    json.dumps(checks)
        except Exception as error:  # an engine failing is a result
            entry["error"] = f"running: {error}"
    return agree


def identical_across_threads(workload, engines, results):
    """Whether every multi-threaded Kiln wrote exactly the bytes that Kiln
    on one thread wrote (the split of the work is fixed at compile time);
    None when there is nothing to compare."""
    same = None
    for engine in engines:
        base = report.re.sub(r"_t\d+$", "", engine.name)
        if (not engine.name.startswith("kiln") or base == engine.name
                or "outputs_paths" not in results.get(base, {})
                or "outputs_paths" not in results[engine.name]):
            continue
        mine = results[engine.name]["outputs_paths"]
        theirs = results[base]["outputs_paths"]
        for name in workload.outputs:
            with open(mine[name], "rb") as a, open(theirs[name], "rb") as b:
                equal = a.read() == b.read()
            results[engine.name].setdefault("bitwise_equal_to", {})[name] = \
                equal
            same = equal if same is None else same and equal
    return same


def one_batch(engine, workload, warmup, iterations):
    """The repetition's sample (ms) and the batch's own figures."""
    result = engine.batch(workload, warmup, iterations)
    if isinstance(result, tuple):       # kiln-run: (median, p10, p90)
        return result[0], {"median": result[0], "p10": result[1],
                           "p90": result[2]}
    return stats.batch_median(result), {"times": result}


def time_workload(workload, engines, results, args):
    live = [e for e in engines if "error" not in results[e.name]]
    if not live:
        return
    # Calibration: one run per engine gives the batch size and the cost of
    # a repetition (including process start for kiln-run).
    plan = {}
    round_s = 0.0
    for engine in live:
        start = time.perf_counter()
        try:
            latency, _ = one_batch(engine, workload, args.warmup, 1)
            wall = time.perf_counter() - start
            if latency < 100:   # one run is a noisy estimate: take five
                latency, _ = one_batch(engine, workload, 0, 5)
        except Exception as error:
            results[engine.name]["error"] = f"timing: {error}"
            continue
        count = int(min(200, max(1, round(args.batch_ms / max(latency,
                                                              1e-3)))))
        warmup = 0 if latency > args.no_warmup_above_ms else args.warmup
        overhead = max(0.0, wall - (args.warmup + 1) * latency / 1e3)
        plan[engine.name] = (warmup, count)
        round_s += overhead + (warmup + count) * latency / 1e3
    live = [e for e in live if e.name in plan]
    reps = args.reps
    if round_s * reps > args.budget_s:
        reps = max(args.min_reps, int(args.budget_s / max(round_s, 1e-9)))
    samples = {e.name: [] for e in live}
    batches = {e.name: [] for e in live}
    for rep in range(reps):
        order = live[rep % len(live):] + live[:rep % len(live)]
        for engine in order:
            if "error" in results[engine.name]:
                continue
            try:
                sample, batch = one_batch(engine, workload,
                                          *plan[engine.name])
            except Exception as error:
                results[engine.name]["error"] = f"timing: {error}"
                continue
            samples[engine.name].append(sample)
            batches[engine.name].append(batch)
    for engine in live:
        entry = results[engine.name]
        if "error" in entry:
            continue
        entry.update(stats.summarize(samples[engine.name]))
        entry.update(repetitions=reps, runs_per_batch=plan[engine.name][1],
                     warmup_per_batch=plan[engine.name][0],
                     batches=batches[engine.name])


def ratios(results, engines):
    out = {}
    for k, p in report.ratio_pairs([e.name for e in engines]):
        a, b = results.get(k, {}), results.get(p, {})
        out[f"{k}/{p}"] = (a["median_ms"] / b["median_ms"]
                           if "median_ms" in a and "median_ms" in b
                           else None)
    return out


def paired_ratios(results, engines):
    """Median over repetitions of the ratio within each repetition.

    Samples of one repetition ran seconds apart, so this ratio is less
    sensitive to load that comes and goes than the ratio of the medians.
    """
    out = {}
    for k, p in report.ratio_pairs([e.name for e in engines]):
        a = results.get(k, {}).get("samples_ms", [])
        b = results.get(p, {}).get("samples_ms", [])
        pairs = [x / y for x, y in zip(a, b) if y > 0]
        out[f"{k}/{p}"] = float(np.median(pairs)) if pairs and len(
            a) == len(b) else None
    return out


def machine():
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return cpu


def load_average():
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def kiln_revision(engines):
    """The commit of the checkout that holds the kilnc being measured."""
    kiln = next((e for e in engines if e.name.startswith("kiln")), None)
    folder = os.path.dirname(os.path.realpath(kiln.kilnc)) if kiln else ROOT
    try:
        return subprocess.run(["git", "-C", folder, "describe", "--always",
                               "--dirty"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None):
    args = parse_args(argv)
    try:
        args.thread_counts = [int(t) for t in args.threads.split(",")]
        if not args.thread_counts or min(args.thread_counts) < 1:
            raise ValueError
    except ValueError:
        print("bench: --threads takes positive counts, e.g. 1,2",
              file=sys.stderr)
        return 2
    if args.torch_blas == "openblas" and argv is None:
        blas.reexec_with_openblas()
    import workloads
    known = workloads.names(args.size, everything=True)
    names = args.only or workloads.names(args.size)
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"bench: unknown {args.size} workloads: {', '.join(unknown)} "
              f"(known: {', '.join(known)})", file=sys.stderr)
        return 2
    requested = ALL_ENGINES if args.engines == "auto" else tuple(
        args.engines.split(","))
    if any(e not in ALL_ENGINES for e in requested):
        print(f"bench: --engines takes {','.join(ALL_ENGINES)} or auto",
              file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    work_dir = os.path.join(args.out, "work", args.size)
    suite = ensure_workloads(names, args.size,
                             os.path.join(args.out, "workloads", args.size),
                             args.regenerate)
    engines, unavailable = make_engines(args, requested, work_dir)
    failed = False
    for name, why in unavailable.items():
        print(f"bench: {name} unavailable: {why}",
              file=sys.stderr if args.engines != "auto" else sys.stdout)
        failed |= args.engines != "auto"
    if not engines:
        print("bench: no engine available", file=sys.stderr)
        return 1
    print("bench: engines " + ", ".join(
        e.label + (f" ({e.version})" if hasattr(e, "version") else "")
        for e in engines), flush=True)
    load_before = load_average()
    rows = []
    for workload in suite:
        results = {e.name: {} for e in engines}
        for engine in engines:
            try:
                results[engine.name]["prepare"] = engine.prepare(workload)
            except Exception as error:
                results[engine.name]["error"] = f"preparing: {error}"
        agree = check_outputs(workload, engines, results,
                              os.path.join(work_dir, "outputs"))
        identical = identical_across_threads(workload, engines, results)
        time_workload(workload, engines, results, args)
        for engine in engines:
            engine.release(workload)
        row = {"name": workload.name,
               "description": workload.manifest["description"],
               "params": workload.manifest["params"],
               "outputs_agree": agree, "engines": results,
               "kiln_threads_bitwise_identical": identical,
               "ratios": ratios(results, engines),
               "paired_ratios": paired_ratios(results, engines)}
        rows.append(row)
        failed |= not agree or identical is False or any(
            "error" in r for r in results.values())
        print(f"bench: {workload.name}: " + ", ".join(
            f"{e.name} " + (f"{results[e.name]['median_ms']:.4g} ms"
                            if "median_ms" in results[e.name] else "ERROR")
            for e in engines) + ("" if agree else " OUTPUTS DIFFER") + (
            " OUTPUTS DIFFER ACROSS THREAD COUNTS" if identical is False
            else "") + "".join(
            f", {k} {v:.2f}" for k, v in row["ratios"].items()
            if v is not None), flush=True)
        for engine in engines:
            if "error" in results[engine.name]:
                print(f"bench: {workload.name}: {engine.name}: "
                      f"{results[engine.name]['error']}", file=sys.stderr)
    for engine in engines:
        engine.close()
    results = {
        "meta": {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds"),
            "size": args.size, "cpu": machine(), "nproc": os.cpu_count(),
            "load_before": load_before, "load_after": load_average(),
            "kiln_revision": args.kiln_revision or kiln_revision(engines),
            "engines": [e.name for e in engines],
            "labels": {e.name: e.label for e in engines},
            "versions": {e.name: getattr(e, "version", None)
                         for e in engines},
            "unavailable": unavailable,
            "settings": {k: v for k, v in vars(args).items()},
            "threads": args.thread_counts,
        },
        "workloads": rows,
    }
    charted = report.write(results, args.out)
    print(f"bench: wrote {os.path.join(args.out, 'results.json')}, "
          f"results.md" + (", results.png" if charted else
                           " (no chart: matplotlib missing)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
