"""PyTorch eager on the CPU (Debian python3-torch), in this process."""
import os
import time

import numpy as np
import torch

import blas
import workloads


class TorchEngine:
    name = "torch"
    label = "PyTorch eager"
    _interop_set = False

    def __init__(self, threads=1):
        # Intra-op threads are process-wide: set before every batch.
        self.threads = threads
        if threads != 1:
            self.name = f"torch_t{threads}"
            self.label = f"PyTorch eager, {threads} threads"
        torch.set_num_threads(threads)
        if not TorchEngine._interop_set:
            torch.set_num_interop_threads(1)
            TorchEngine._interop_set = True
        self.version = f"{torch.__version__}, {blas.describe_loaded()}"
        self.models = {}

    def prepare(self, workload):
        start = time.perf_counter()
        model, _ = workloads.build(workload.name, workload.size)
        model.load_state_dict(torch.load(
            os.path.join(workload.folder, "model.pt")))
        model.eval()
        inputs = tuple(torch.from_numpy(np.load(
            os.path.join(workload.folder, i["file"]))) for i in workload.inputs)
        self.models[workload.name] = (model, inputs)
        return {"load_ms": (time.perf_counter() - start) * 1e3}

    def outputs(self, workload, out_dir):
        model, inputs = self.models[workload.name]
        with torch.inference_mode():
            result = model(*inputs)
        results = result if isinstance(result, tuple) else (result,)
        os.makedirs(out_dir, exist_ok=True)
        paths = {}
        for name, tensor in zip(workload.outputs, results):
            paths[name] = os.path.join(out_dir, name + ".npy")
            np.save(paths[name], tensor.numpy())
        return paths

    def batch(self, workload, warmup, iterations):
        torch.set_num_threads(self.threads)
        model, inputs = self.models[workload.name]
        times = []
        with torch.inference_mode():
            for _ in range(warmup):
                model(*inputs)
            for _ in range(iterations):
                start = time.perf_counter()
                model(*inputs)
                times.append((time.perf_counter() - start) * 1e3)
        return times

    def release(self, workload):
        self.models.pop(workload.name, None)

    def close(self):
        pass
