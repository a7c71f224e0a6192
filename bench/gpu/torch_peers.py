#!/usr/bin/env python3
"""Times PyTorch eager and torch.compile on the GPU check's models.

Runs on the GPU machine next to kiln-gpu-check (scripts/gpu-check.sh calls
it): the same architectures (test/e2e/models/export_models.py) with the same
weights (the NAME.pt state dicts gpu-prepare.sh wrote) and the same inputs,
so Kiln's latency records have their peers in the same run. Also checks that
PyTorch on the GPU reproduces the CPU reference outputs Kiln is checked
against. Writes one JSON; never fails the check (a peer that cannot run is
reported with its reason).

  torch_peers.py MODELS_DIR --json OUT.json [--budget SECONDS]
                 [--device cuda|cpu] [--no-compile] NAME[:SIZE]...
"""
import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "e2e", "models"))


def median_ms(fn, x, torch, iterations=50, warmup=10):
    """Median device time of fn(x) over `iterations`, by CUDA events (by
    the host clock on the CPU, for the smoke test)."""
    for _ in range(warmup):
        fn(x)
    times = []
    if x.device.type == "cpu":
        for _ in range(iterations):
            start = time.perf_counter()
            fn(x)
            times.append(1e3 * (time.perf_counter() - start))
        return float(np.median(times))
    torch.cuda.synchronize()
    for _ in range(iterations):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn(x)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return float(np.median(times))


def peer(name, size, folder, torch, deadline, device):
    import export_models
    record = {"kind": "torch_peer", "name": name, "size": size}
    model, _ = export_models.models(size)[name]
    prefix = os.path.join(folder, name)
    model.load_state_dict(torch.load(prefix + ".pt", map_location="cpu"))
    model = model.eval().to(device)
    x = torch.from_numpy(np.load(prefix + ".input.npy")).to(device)
    expected = np.load(prefix + ".expected.npy")
    with torch.inference_mode():
        got = model(x).float().cpu().numpy()
        record["max_abs_error_vs_reference"] = float(np.max(np.abs(got - expected)))
        record["eager_ms"] = median_ms(model, x, torch)
        if not hasattr(torch, "compile"):
            record["compile_error"] = "this PyTorch has no torch.compile"
        elif time.monotonic() < deadline:
            try:
                compiled = torch.compile(model)
                started = time.monotonic()
                compiled(x)
                record["compile_s"] = time.monotonic() - started
                record["compiled_ms"] = median_ms(compiled, x, torch)
            except Exception as error:  # Triton missing, a graph break...
                record["compile_error"] = f"{type(error).__name__}: {error}"[:300]
        else:
            record["compile_error"] = "skipped: time budget spent"
    return record


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models_dir")
    parser.add_argument("--json", required=True)
    parser.add_argument("--budget", type=float, default=90,
                        help="seconds; torch.compile is skipped once spent")
    parser.add_argument("--device", default="cuda",
                        help="cuda, or cpu for a smoke test without a GPU")
    parser.add_argument("--no-compile", action="store_true")
    parser.add_argument("models", nargs="+", help="NAME or NAME:bench")
    args = parser.parse_args()
    deadline = time.monotonic() + args.budget
    result = {"records": []}
    try:
        import torch
        result["torch"] = torch.__version__
        if args.device == "cuda":
            if not torch.cuda.is_available():
                raise RuntimeError("PyTorch sees no CUDA device")
            result["device"] = torch.cuda.get_device_name(0)
        else:
            result["device"] = args.device
    except Exception as error:
        result["status"] = "unavailable"
        result["reason"] = f"{type(error).__name__}: {error}"
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
        print(f"torch peers: {result['reason']}")
        return 0
    for spec in args.models:
        name, _, size = spec.partition(":")
        size = size or "test"
        folder = os.path.join(args.models_dir, "" if size == "test" else size)
        try:
            record = peer(name, size, folder, torch,
                          0 if args.no_compile else deadline, args.device)
        except Exception as error:
            record = {"kind": "torch_peer", "name": name, "size": size,
                      "error": f"{type(error).__name__}: {error}"[:300]}
        result["records"].append(record)
        print(json.dumps(record))
    result["status"] = "done"
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
