#!/usr/bin/python3
"""Pre-quantized (QDQ) ONNX models for qdq.test and qdq-ort.test, in the
form ONNX Runtime's quantization tools write: activations through
QuantizeLinear/DequantizeLinear (uint8 or int8, per tensor), weights as
int8 initializers through DequantizeLinear per output channel.

qdq_models.py OUT --kilnc KILNC   writes OUT/CASE.onnx, OUT/CASE.x.npy and
    the NumPy model's output OUT/CASE.expected.npy, runs `KILNC run` on each
    (OUT/CASE.out/y.npy), and compares: the NumPy model of the QDQ graph has
    exact integer products, so Kiln's int8 kernels must agree to float32
    rounding. Prints one line per case. (scripts/gpu-prepare.sh reuses the
    models and references for the GPU check.)

Cases: matmul_u8 (uint8 activations, zero point 131), matmul_s8 (int8,
zero point -3, 3-D input), gemm_bias (Gemm with transB and a bias), conv
(3x3, stride 2, padding 1, per-channel weights), mlp (two MatMul layers
with ReLU and a requantized hidden layer; 256 rows, for argmax
agreement)."""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper

rng = np.random.RandomState(7)


def quantize(x, scale, zero, dtype):
    info = np.iinfo(dtype)
    q = np.rint(x / np.float32(scale)) + zero
    return np.clip(q, info.min, info.max).astype(dtype)


def dequantize(q, scale, zero):
    return ((q.astype(np.float32) - np.float32(zero)) * np.float32(scale)
            ).astype(np.float32)


def int8_weights(shape, axis):
    """int8 weights, per-channel scales along `axis` (one channel has max
    |w| below 127 and one is all zero: the recovery's edge cases)."""
    w = rng.randint(-127, 128, size=shape).astype(np.int8)
    channels = shape[axis]
    scales = (rng.rand(channels).astype(np.float32) + 0.25) / 64
    index = [slice(None)] * len(shape)
    index[axis] = 0
    w[tuple(index)] = np.clip(w[tuple(index)], -40, 40)
    index[axis] = channels - 1
    w[tuple(index)] = 0
    return w, scales


class Graph:
    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def qdq(self, x, scale, zero, dtype):
        s = self.const(x + "_s", np.array(scale, np.float32))
        z = self.const(x + "_z", np.array(zero, dtype))
        self.nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [x + "_q"]))
        self.nodes.append(helper.make_node("DequantizeLinear", [x + "_q", s, z], [x + "_dq"]))
        return x + "_dq"

    def weight(self, name, w, scales, axis):
        self.const(name + "_q", w)
        self.const(name + "_s", scales)
        self.nodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_s"],
                                           [name], axis=axis))
        return name

    def save(self, path, x_shape, y_shape):
        graph = helper.make_graph(
            self.nodes, "qdq", [helper.make_tensor_value_info("x", T.FLOAT, x_shape)],
            [helper.make_tensor_value_info("y", T.FLOAT, y_shape)], self.inits)
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def matmul_case(dtype, zero, x_shape):
    k, n = x_shape[-1], 24
    g = Graph()
    w, s = int8_weights((k, n), 1)
    xs = 0.03
    a = g.qdq("x", xs, zero, dtype)
    g.weight("w", w, s, 1)
    g.nodes.append(helper.make_node("MatMul", [a, "w"], ["y"]))
    x = (rng.randn(*x_shape) * 1.5).astype(np.float32)
    y = dequantize(quantize(x, xs, zero, dtype), xs, zero).astype(np.float64) @ \
        dequantize(w, s, 0).astype(np.float64)
    return g, x, y, list(x_shape[:-1]) + [n]


def gemm_case():
    g = Graph()
    w, s = int8_weights((20, 48), 0)  # transB: [N, K], channels on axis 0
    bias = rng.randn(20).astype(np.float32)
    a = g.qdq("x", 0.05, 128, np.uint8)
    g.weight("w", w, s, 0)
    g.const("b", bias)
    g.nodes.append(helper.make_node("Gemm", [a, "w", "b"], ["y"], transB=1))
    x = rng.randn(5, 48).astype(np.float32)
    xd = dequantize(quantize(x, 0.05, 128, np.uint8), 0.05, 128).astype(np.float64)
    y = xd @ dequantize(w, s[:, None], 0).astype(np.float64).T + bias
    return g, x, y, [5, 20]


def conv_case():
    g = Graph()
    w, s = int8_weights((6, 3, 3, 3), 0)
    a = g.qdq("x", 0.04, 120, np.uint8)
    g.weight("w", w, s, 0)
    g.nodes.append(helper.make_node("Conv", [a, "w"], ["y"], strides=[2, 2],
                                    pads=[1, 1, 1, 1]))
    x = rng.randn(2, 3, 9, 9).astype(np.float32)
    xd = dequantize(quantize(x, 0.04, 120, np.uint8), 0.04, 120).astype(np.float64)
    wd = dequantize(w, s[:, None, None, None], 0).astype(np.float64)
    padded = np.pad(xd, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((2, 6, 5, 5))
    for i in range(5):
        for j in range(5):
            patch = padded[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3]
            y[:, :, i, j] = np.einsum("nchw,ochw->no", patch, wd)
    return g, x, y, [2, 6, 5, 5]


def mlp_case():
    g = Graph()
    w1, s1 = int8_weights((64, 96), 1)
    w2, s2 = int8_weights((96, 10), 1)
    b1 = (rng.randn(96) * 0.1).astype(np.float32)
    a = g.qdq("x", 0.02, 128, np.uint8)
    g.weight("w1", w1, s1, 1)
    g.weight("w2", w2, s2, 1)
    g.const("b1", b1)
    g.nodes += [helper.make_node("MatMul", [a, "w1"], ["m1"]),
                helper.make_node("Add", ["m1", "b1"], ["a1"]),
                helper.make_node("Relu", ["a1"], ["h"])]
    h = g.qdq("h", 0.01, 0, np.uint8)
    g.nodes.append(helper.make_node("MatMul", [h, "w2"], ["y"]))
    x = (rng.rand(256, 64) * 4 - 2).astype(np.float32)
    xd = dequantize(quantize(x, 0.02, 128, np.uint8), 0.02, 128)
    hidden = np.maximum(xd @ dequantize(w1, s1, 0) + b1, 0).astype(np.float32)
    hd = dequantize(quantize(hidden, 0.01, 0, np.uint8), 0.01, 0)
    y = hd.astype(np.float64) @ dequantize(w2, s2, 0).astype(np.float64)
    return g, x, y, [256, 10]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--kilnc", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cases = {
        "matmul_u8": matmul_case(np.uint8, 131, (6, 40)),
        "matmul_s8": matmul_case(np.int8, -3, (2, 3, 40)),
        "gemm_bias": gemm_case(),
        "conv": conv_case(),
        "mlp": mlp_case(),
    }
    failed = False
    for name, (g, x, want, y_shape) in cases.items():
        model = os.path.join(args.out, name + ".onnx")
        g.save(model, list(x.shape), y_shape)
        np.save(os.path.join(args.out, name + ".x.npy"), x)
        np.save(os.path.join(args.out, name + ".expected.npy"),
                want.astype(np.float32))
        out = os.path.join(args.out, name + ".out")
        subprocess.run([args.kilnc, "run", model, "--input",
                        "x=" + os.path.join(args.out, name + ".x.npy"),
                        "--output-dir", out], check=True, stdout=subprocess.DEVNULL)
        got = np.load(os.path.join(out, "y.npy"))
        scale = np.abs(want).max()
        err = np.abs(got - want).max() / scale
        if name == "mlp":
            # The hidden layer is requantized: a sum that lands within float
            # rounding of a rounding boundary may go either way, so judge
            # the predictions.
            agree = np.mean(got.argmax(1) == want.argmax(1)) * 100
            ok = agree >= 99.5 and err < 0.02
            print("%s: argmax agreement %.1f%% %s" % (name, agree, "OK" if ok else "FAIL"))
        else:
            ok = got.shape == want.shape and err < 1e-5
            print("%s: %s %s" % (name, "OK" if ok else "FAIL",
                                 "" if ok else "max relative error %g" % err))
        failed |= not ok
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
