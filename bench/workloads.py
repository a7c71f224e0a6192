#!/usr/bin/python3
"""The benchmark workloads: PyTorch modules exported to ONNX (opset 17).

Each workload is a PyTorch module with random weights (fixed seed) and
example inputs. `generate(name, size, out)` writes into OUT/NAME/:

  model.onnx          exported with torch.onnx.export, static shapes
  model.pt            the module's state_dict (PyTorch eager reloads it)
  inputs/<name>.npy   one file per ONNX input
  ref/<name>.npy      PyTorch's outputs: every engine is checked against them
  workload.json       the manifest (inputs, outputs, tolerance, description)

Two sizes: `full` (the benchmark plan in shared/reference/performance.md,
section 8) and `smoke` (tiny shapes, for the test suite; without the
workloads that take seconds to compile even when tiny).

The MLP, ResNet-18, BERT and GPT modules are the ones of
test/e2e/models/export_models.py, imported rather than copied.

Usage: workloads.py OUT [--size full|smoke] [--only NAME ...]
"""
import argparse
import json
import os
import sys
import zlib

import numpy as np
import torch
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e", "models"))
import export_models as em  # noqa: E402  (the end-to-end test models)


class ElementwiseChain(nn.Module):
    """Mul, Add, Sigmoid, Mul, Tanh, Add, Relu, Mul: 8 ONNX ops."""

    def forward(self, x):
        x = torch.sigmoid(x * 1.5 + 0.25) * 2.0
        return torch.relu(torch.tanh(x) + 0.1) * 3.0


class Softmax(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


class GemmBiasGelu(nn.Module):
    """A BERT feed-forward up-projection: MatMul + Add + GELU (erf form)."""

    def __init__(self, k, n):
        super().__init__()
        self.linear = nn.Linear(k, n)

    def forward(self, x):
        return nn.functional.gelu(self.linear(x))


def _randn(*shape):
    return torch.randn(*shape)


def _ids(seq, vocab=1000):
    return torch.randint(0, vocab, (1, seq))


def _resnet(width, classes):
    model = em.ResNet18(width=width, classes=classes)
    em.randomize_batchnorm(model)
    return model


# name -> {size -> (module factory, input factory)}, description, tolerance.
# Tolerance: |engine - PyTorch| <= atol + rtol * |PyTorch|, with
# atol = tol * max|PyTorch| (deep models accumulate rounding differently).
WORKLOADS = {
    "ew_chain": dict(
        description="8 elementwise ops over 4M floats",
        full=(ElementwiseChain, lambda: _randn(1024, 4096)),
        smoke=(ElementwiseChain, lambda: _randn(64, 64)),
        tol=1e-5),
    "layernorm": dict(
        description="LayerNorm rows, 512x3072",
        full=(lambda: nn.LayerNorm(3072), lambda: _randn(512, 3072)),
        smoke=(lambda: nn.LayerNorm(64), lambda: _randn(8, 64)),
        tol=1e-5),
    "softmax": dict(
        description="Softmax rows, 512x3072",
        full=(Softmax, lambda: _randn(512, 3072)),
        smoke=(Softmax, lambda: _randn(8, 64)),
        tol=1e-5),
    "gemm_bias_gelu": dict(
        description="GEMM 128x768x3072 + bias + GELU",
        full=(lambda: GemmBiasGelu(768, 3072), lambda: _randn(128, 768)),
        smoke=(lambda: GemmBiasGelu(32, 64), lambda: _randn(8, 32)),
        tol=1e-5),
    "mlp_b1": dict(
        description="MLP 784-512-512-10, batch 1",
        full=(lambda: em.MLP(784, 512, 10), lambda: _randn(1, 1, 28, 28)),
        smoke=(lambda: em.MLP(64, 32, 10), lambda: _randn(1, 1, 8, 8)),
        tol=1e-5),
    "mlp_b64": dict(
        description="MLP 784-512-512-10, batch 64",
        full=(lambda: em.MLP(784, 512, 10), lambda: _randn(64, 1, 28, 28)),
        smoke=None,
        tol=1e-5),
    "bert_tiny": dict(
        description="BERT encoder 2L H128 2 heads FFN512, seq 128",
        full=(lambda: em.Bert(d=128, heads=2, ff=512, layers=2, seq=128),
              lambda: _ids(128)),
        smoke=(lambda: em.Bert(d=32, heads=2, ff=64, layers=1, seq=16),
               lambda: _ids(16)),
        tol=1e-4),
    "bert_mini": dict(
        description="BERT encoder 4L H256 4 heads FFN1024, seq 128",
        full=(lambda: em.Bert(d=256, heads=4, ff=1024, layers=4, seq=128),
              lambda: _ids(128)),
        smoke=None,
        tol=1e-4),
    "resnet18": dict(
        description="ResNet-18 (BN folded), 224x224, batch 1",
        full=(lambda: _resnet(64, 1000), lambda: _randn(1, 3, 224, 224)),
        smoke=None,  # compiles for seconds; test/e2e/models covers it
        tol=1e-4),
    "gpt": dict(
        description="GPT decoder, 4 blocks d256 4 heads, prefill 128",
        full=(lambda: em.Gpt(d=256, heads=4, layers=4, seq=128),
              lambda: _ids(128)),
        smoke=None,  # compiles for seconds; test/e2e/models covers it
        tol=1e-4),
    # Large models for profiling (kilnc profile, docs/profiling.md): only
    # on request (--only), a default run would take many minutes.
    "resnet50": dict(
        description="ResNet-50 (torchvision, random weights, BN folded), "
                    "224x224, batch 1",
        full=(lambda: _torchvision("resnet50"), lambda: _randn(1, 3, 224, 224)),
        smoke=None, tol=1e-4, default=False),
    "mobilenet_v2": dict(
        description="MobileNet-V2 (torchvision, random weights), 224x224, "
                    "batch 1",
        full=(lambda: _torchvision("mobilenet_v2"),
              lambda: _randn(1, 3, 224, 224)),
        smoke=None, tol=1e-4, default=False),
    "efficientnet_b0": dict(
        description="EfficientNet-B0 (torchvision, random weights), "
                    "224x224, batch 1",
        full=(lambda: _torchvision("efficientnet_b0"),
              lambda: _randn(1, 3, 224, 224)),
        smoke=None, tol=1e-4, default=False),
    "squeezenet1_1": dict(
        description="SqueezeNet 1.1 (torchvision, random weights), "
                    "224x224, batch 1",
        full=(lambda: _torchvision("squeezenet1_1"),
              lambda: _randn(1, 3, 224, 224)),
        smoke=None, tol=1e-4, default=False),
    # The compile-time target of issue 15 (docs/benchmarks.md).
    "densenet121": dict(
        description="DenseNet-121 (torchvision, random weights), 224x224, "
                    "batch 1",
        full=(lambda: _torchvision("densenet121"),
              lambda: _randn(1, 3, 224, 224)),
        smoke=None, tol=1e-4, default=False),
    "bert_base": dict(
        description="BERT-base-sized encoder 12L H768 12 heads FFN3072, "
                    "seq 128",
        full=(lambda: em.Bert(d=768, heads=12, ff=3072, layers=12, seq=128),
              lambda: _ids(128)),
        smoke=None, tol=1e-4, default=False),
    # Pipeline parallelism splits the batch into micro-batches.
    "bert_base_b4": dict(
        description="BERT-base-sized encoder 12L H768 12 heads FFN3072, "
                    "seq 128, batch 4",
        full=(lambda: em.Bert(d=768, heads=12, ff=3072, layers=12, seq=128),
              lambda: torch.randint(0, 1000, (4, 128))),
        smoke=None, tol=1e-4, default=False),
}

SIZES = ("full", "smoke")


def _torchvision(architecture):
    """A torchvision architecture with random weights (Debian's
    python3-torchvision; never a download) and well-conditioned BatchNorm
    statistics."""
    import torchvision
    model = getattr(torchvision.models, architecture)(weights=None)
    em.randomize_batchnorm(model)
    return model


def names(size, everything=False):
    """Workloads of `size`: the default set, or also the on-request ones."""
    return [n for n, w in WORKLOADS.items()
            if w.get(size) and (everything or w.get("default", True))]


def build(name, size):
    """The module (eval mode) and its example inputs, deterministically."""
    factory, inputs = WORKLOADS[name][size]
    torch.manual_seed(zlib.crc32(f"{name}/{size}".encode()))
    model = factory()
    model.eval()
    example = inputs()
    return model, (example,)


def load_manifest(folder):
    with open(os.path.join(folder, "workload.json")) as f:
        return json.load(f)


def generate(name, size, out, generator=None):
    folder = os.path.join(out, name)
    os.makedirs(os.path.join(folder, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(folder, "ref"), exist_ok=True)
    model, example = build(name, size)
    with torch.no_grad():
        expected = model(*example)
    outputs = expected if isinstance(expected, tuple) else (expected,)
    input_names = ["input"] if len(example) == 1 else [
        f"input{i}" for i in range(len(example))]
    output_names = ["output"] if len(outputs) == 1 else [
        f"output{i}" for i in range(len(outputs))]
    torch.onnx.export(model, example, os.path.join(folder, "model.onnx"),
                      opset_version=17, input_names=input_names,
                      output_names=output_names, do_constant_folding=True)
    torch.save(model.state_dict(), os.path.join(folder, "model.pt"))
    inputs = []
    for input_name, tensor in zip(input_names, example):
        path = os.path.join("inputs", input_name + ".npy")
        np.save(os.path.join(folder, path), tensor.numpy())
        inputs.append(dict(name=input_name, file=path,
                           dtype=str(tensor.numpy().dtype),
                           shape=list(tensor.shape)))
    for output_name, tensor in zip(output_names, outputs):
        np.save(os.path.join(folder, "ref", output_name + ".npy"),
                tensor.numpy())
    spec = WORKLOADS[name]
    manifest = dict(name=name, size=size, description=spec["description"],
                    tol=spec["tol"], inputs=inputs, outputs=output_names,
                    params=sum(p.numel() for p in model.parameters()),
                    generator=generator)
    with open(os.path.join(folder, "workload.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--size", choices=SIZES, default="full")
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    for name in args.only or names(args.size):
        if name not in names(args.size, everything=True):
            parser.error(f"unknown {args.size} workload {name}")
        manifest = generate(name, args.size, args.out)
        shapes = ", ".join(str(tuple(i["shape"])) for i in manifest["inputs"])
        print(f"generated {name} ({args.size}): inputs {shapes}")


if __name__ == "__main__":
    main()
