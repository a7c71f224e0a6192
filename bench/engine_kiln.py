"""Kiln: `kilnc compile` to a .kiln artifact, timed with `kiln-run`.

Every latency batch is one `kiln-run ARTIFACT --warmup W --iterations N`
process: the runtime alone (no MLIR or LLVM), as a deployment runs it; the
process start and the artifact load are outside the timed loop.

Optional kilnc features are detected from `--help`, so the harness keeps
working as they land:
  --fusion=none   (compile) a second column, Kiln with fusion off
  --stats-json F  (compile) planned peak memory, its lower bound, kernels
"""
import json
import os
import re
import shutil
import subprocess
import time

import numpy as np

LATENCY = re.compile(r"median ([0-9.]+) ms, p10 ([0-9.]+) ms, p90 ([0-9.]+) ms")
SINGLE = re.compile(r"ran in ([0-9.]+) ms")
COMPILED = re.compile(r"in ([0-9.]+) ms")
ARENA = re.compile(r"arena (\d+) bytes")


def _help(kilnc, command):
    result = subprocess.run([kilnc, command, "--help"], capture_output=True,
                            text=True)
    return result.stdout + result.stderr


def detect_features(kilnc):
    """What this kilnc offers beyond the basics (see the module doc)."""
    compile_help = _help(kilnc, "compile")
    return {
        "fusion": bool(re.search(r"--fusion\b", compile_help)),
        "stats_json": "--stats-json" in compile_help,
        "compile_cache": "--no-compile-cache" in compile_help,
    }


def _run(argv, what, env=None):
    result = subprocess.run(argv, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise RuntimeError(f"{what} failed (exit {result.returncode}): "
                           + " | ".join(detail[-3:]))
    return result.stdout


class KilnEngine:
    """One Kiln configuration (e.g. fusion on, or --fusion=none)."""

    def __init__(self, kilnc, kiln_run, work_dir, name="kiln",
                 label="Kiln", compile_flags=(), stats_json=False,
                 compiles=3, run_flags=(), compile_cache=False):
        self.kilnc, self.kiln_run = kilnc, kiln_run
        self.work_dir = os.path.join(work_dir, name)
        self.name, self.label = name, label
        self.compile_flags = list(compile_flags)
        self.run_flags = list(run_flags)
        self.stats_json = stats_json
        self.compiles = max(1, compiles)
        self.compile_cache = compile_cache
        self.artifacts = {}

    def _inputs(self, workload):
        argv = []
        for i in workload.inputs:
            argv += ["--input",
                     f"{i['name']}={os.path.join(workload.folder, i['file'])}"]
        return argv

    def prepare(self, workload):
        """Compiles (first = cold, the rest = warm); artifact statistics."""
        os.makedirs(self.work_dir, exist_ok=True)
        artifact = os.path.join(self.work_dir, workload.name + ".kiln")
        stats_path = os.path.join(self.work_dir, workload.name + ".stats.json")
        argv = [self.kilnc, "compile", os.path.join(workload.folder,
                                                     "model.onnx"),
                "-o", artifact] + self.compile_flags
        if self.stats_json:
            argv += ["--stats-json", stats_path]
        walls, internals = [], []
        # The first compile fills a compile cache of this run's own (so a
        # user's cache cannot answer it); the warm ones compile for real.
        cache = os.path.join(self.work_dir, "compile-cache", workload.name)
        shutil.rmtree(cache, ignore_errors=True)
        env = dict(os.environ, KILN_CACHE_DIR=cache)
        for i in range(self.compiles):
            start = time.perf_counter()
            out = _run(argv + (["--no-compile-cache"]
                               if self.compile_cache and i > 0 else []),
                       "kilnc compile", env)
            walls.append((time.perf_counter() - start) * 1e3)
            match = COMPILED.search(out)
            internals.append(float(match.group(1)) if match else None)
        cached_ms = None
        if self.compile_cache:
            start = time.perf_counter()
            _run(argv, "kilnc compile (cached)", env)
            cached_ms = (time.perf_counter() - start) * 1e3
        self.artifacts[workload.name] = artifact
        info = {
            "compile_cold_ms": walls[0],
            "compile_warm_ms": float(np.median(walls[1:])) if len(walls) > 1
            else None,
            "codegen_ms": internals[-1],
            "compile_cached_ms": cached_ms,
            "artifact_bytes": os.path.getsize(artifact),
        }
        inspect = _run([self.kilnc, "inspect", artifact], "kilnc inspect")
        arenas = [int(a) for a in ARENA.findall(inspect)]
        info["arena_bytes"] = sum(arenas) if arenas else None
        info["kernel_calls"] = len(re.findall(r" (?:dispatch|launch) ",
                                              inspect))
        info["stats"] = None
        if self.stats_json and os.path.exists(stats_path):
            with open(stats_path) as f:
                info["stats"] = json.load(f)
        return info

    def outputs(self, workload, out_dir):
        _run([self.kiln_run, self.artifacts[workload.name],
              *self._inputs(workload), *self.run_flags, "--output-dir",
              out_dir], "kiln-run")
        return {name: os.path.join(out_dir, _sanitize(name) + ".npy")
                for name in workload.outputs}

    def batch(self, workload, warmup, iterations):
        """(median, p10, p90) of `iterations` runs in one kiln-run process."""
        out = _run([self.kiln_run, self.artifacts[workload.name],
                    *self._inputs(workload), *self.run_flags,
                    "--warmup", str(warmup),
                    "--iterations", str(iterations)], "kiln-run")
        match = LATENCY.search(out)
        if match:
            return tuple(float(v) for v in match.groups())
        match = SINGLE.search(out)
        if not match:
            raise RuntimeError(f"kiln-run printed no latency: {out[-200:]}")
        value = float(match.group(1))
        return (value, value, value)

    def release(self, workload):
        self.artifacts.pop(workload.name, None)

    def close(self):
        pass


def _sanitize(name):
    """kiln-run's output file naming (README, 'Using kilnc')."""
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    return "_" + name if name.startswith(".") else name
