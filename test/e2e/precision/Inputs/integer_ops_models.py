#!/usr/bin/python3
"""ONNX's operator-form quantized models (what ONNX Runtime's QOperator
format and dynamic quantization write) with constant weights, for
integer-ops.test: QLinearMatMul, MatMulInteger, QLinearConv and
ConvInteger, int8 and uint8, scalar and per-channel parameters.

integer_ops_models.py OUT --kilnc KILNC   writes OUT/CASE.onnx and its
    inputs, runs `kilnc run` on each, and compares every output with a
    NumPy model of ONNX's definition: integer products exactly, the QLinear
    requantisation as ONNX's reference computes it in float32 (so exactly
    too). Prints one line per case."""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper

rng = np.random.RandomState(11)
ONNX_TYPE = {np.uint8: T.UINT8, np.int8: T.INT8, np.int32: T.INT32,
             np.float32: T.FLOAT}


def requantize(acc, multiplier, y_zero, dtype):
    """ONNX's QLinear output: round_half_even(acc * multiplier) + zero
    point, saturated; float32 as the reference implementation computes."""
    info = np.iinfo(dtype)
    scaled = acc.astype(np.float32) * np.float32(multiplier)
    return np.clip(np.rint(scaled) + y_zero, info.min, info.max).astype(dtype)


def conv_nchw(x, w, stride, pad):
    """Exact integer convolution (int64), NCHW, square stride and padding,
    padding with zeros (x already centred)."""
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, _, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    y = np.zeros((n, o, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return y


class Case:
    def __init__(self):
        self.nodes, self.inits, self.inputs, self.feeds = [], [], [], {}
        self.outputs, self.want = [], {}

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def input(self, name, array):
        self.inputs.append(helper.make_tensor_value_info(
            name, ONNX_TYPE[array.dtype.type], list(array.shape)))
        self.feeds[name] = array
        return name

    def output(self, name, want):
        self.outputs.append(helper.make_tensor_value_info(
            name, ONNX_TYPE[want.dtype.type], list(want.shape)))
        self.want[name] = want

    def save(self, path):
        graph = helper.make_graph(self.nodes, "integer_ops", self.inputs,
                                  self.outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        onnx.checker.check_model(model)
        onnx.save(model, path)


def qlinear_matmul(a_type, a_zero, a_shape, b_type, b_zero, y_type, y_zero):
    """Per-column b_scale; b centred by its zero point stays in int8."""
    c = Case()
    k, n = a_shape[-1], 48
    info = np.iinfo(a_type)
    a = rng.randint(info.min, info.max + 1, size=a_shape).astype(a_type)
    if b_type == np.uint8:
        b = rng.randint(b_zero - 128, b_zero + 128, size=(k, n)).astype(b_type)
    else:
        b = rng.randint(-127, 128, size=(k, n)).astype(b_type)
    a_scale, y_scale = np.float32(0.02), np.float32(0.9)
    b_scale = ((rng.rand(n) + 0.5) / 100).astype(np.float32)
    c.input("a", a)
    names = [c.const("a_s", a_scale), c.const("a_z", np.array(a_zero, a_type)),
             c.const("b", b), c.const("b_s", b_scale),
             c.const("b_z", np.array(b_zero, b_type)), c.const("y_s", y_scale),
             c.const("y_z", np.array(y_zero, y_type))]
    c.nodes.append(helper.make_node("QLinearMatMul", ["a"] + names, ["y"]))
    acc = (a.astype(np.int64) - a_zero) @ (b.astype(np.int64) - b_zero)
    c.output("y", requantize(acc, a_scale * b_scale / y_scale, y_zero, y_type))
    return c


def dynamic_matmul():
    """ONNX Runtime's dynamic quantization: DynamicQuantizeLinear, then
    MatMulInteger with the dynamic zero point. The product is checked
    against Kiln's own quantized activation (also an output)."""
    c = Case()
    x = (rng.randn(4, 10, 96) * 2).astype(np.float32)
    w = rng.randint(-127, 128, size=(96, 40)).astype(np.int8)
    w_scale = ((rng.rand(40) + 0.5) / 100).astype(np.float32)
    c.input("x", x)
    c.const("w", w)
    c.const("w_s", w_scale)
    c.nodes += [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
        helper.make_node("MatMulInteger", ["xq", "w", "xz"], ["acc"]),
        helper.make_node("Cast", ["acc"], ["accf"], to=T.FLOAT),
        helper.make_node("Mul", ["xs", "w_s"], ["s"]),
        helper.make_node("Mul", ["accf", "s"], ["y"])]
    # The quantized activation is ONNX's (checked against NumPy below).
    lo, hi = min(0.0, x.min()), max(0.0, x.max())
    scale = np.float32((hi - lo) / 255)
    zero = np.uint8(np.clip(np.rint(-lo / scale), 0, 255))
    xq = np.clip(np.rint(x / scale) + zero, 0, 255).astype(np.uint8)
    acc = ((xq.astype(np.int64) - zero) @ w.astype(np.int64)).astype(np.int32)
    c.output("xq", xq)
    c.output("acc", acc)
    c.output("y", (acc.astype(np.float32) * (scale * w_scale)).astype(np.float32))
    return c


def large_matmul_integer():
    """Weights large enough that constant folding keeps their centring
    (b - b_zero_point per column) as ops; a uint8 activation."""
    c = Case()
    a = rng.randint(0, 256, size=(16, 512)).astype(np.uint8)
    b = rng.randint(-100, 101, size=(512, 512)).astype(np.int8)
    b_zero = rng.randint(-20, 21, size=512).astype(np.int8)
    c.input("a", a)
    c.const("a_z", np.array(77, np.uint8))
    c.const("b", b)
    c.const("b_z", b_zero)
    c.nodes.append(helper.make_node("MatMulInteger", ["a", "b", "a_z", "b_z"], ["y"]))
    c.output("y", ((a.astype(np.int64) - 77) @ (b.astype(np.int64) - b_zero)
                   ).astype(np.int32))
    return c


def per_row_matmul_integer():
    """A zero point per row of A: no int8 form, the exact generic path."""
    c = Case()
    a = rng.randint(-128, 128, size=(6, 32)).astype(np.int8)
    a_zero = rng.randint(-10, 10, size=6).astype(np.int8)
    b = rng.randint(-128, 128, size=(32, 8)).astype(np.int8)
    c.input("a", a)
    c.const("b", b)
    c.const("a_z", a_zero)
    c.nodes.append(helper.make_node("MatMulInteger", ["a", "b", "a_z"], ["y"]))
    c.output("y", ((a.astype(np.int64) - a_zero[:, None]) @ b.astype(np.int64)
                   ).astype(np.int32))
    return c


def qlinear_conv():
    """uint8 activation, int8 per-channel weights, int32 bias, 3x3 stride 2
    padding 1 (padding reads the zero point)."""
    c = Case()
    x = rng.randint(0, 256, size=(2, 8, 15, 15)).astype(np.uint8)
    w = rng.randint(-127, 128, size=(16, 8, 3, 3)).astype(np.int8)
    bias = rng.randint(-2000, 2000, size=16).astype(np.int32)
    x_scale, y_scale, x_zero, y_zero = np.float32(0.05), np.float32(1.7), 120, 100
    w_scale = ((rng.rand(16) + 0.5) / 100).astype(np.float32)
    c.input("x", x)
    names = [c.const("x_s", x_scale), c.const("x_z", np.array(x_zero, np.uint8)),
             c.const("w", w), c.const("w_s", w_scale),
             c.const("w_z", np.zeros(16, np.int8)), c.const("y_s", y_scale),
             c.const("y_z", np.array(y_zero, np.uint8)), c.const("bias", bias)]
    c.nodes.append(helper.make_node("QLinearConv", ["x"] + names, ["y"],
                                    strides=[2, 2], pads=[1, 1, 1, 1]))
    acc = conv_nchw(x.astype(np.int64) - x_zero, w.astype(np.int64), 2, 1)
    acc += bias[None, :, None, None]
    multiplier = (x_scale * w_scale / y_scale)[None, :, None, None]
    c.output("y", requantize(acc, multiplier, y_zero, np.uint8))
    return c


def depthwise_qlinear_conv():
    """Depthwise (group = channels) QLinearConv, uint8 with a bias: no int8
    form, run in f32 (every sum fits its significand)."""
    c = Case()
    channels = 8
    x = rng.randint(0, 256, size=(1, channels, 12, 12)).astype(np.uint8)
    w = rng.randint(-127, 128, size=(channels, 1, 3, 3)).astype(np.int8)
    bias = rng.randint(-3000, 3000, size=channels).astype(np.int32)
    x_scale, y_scale, x_zero, y_zero = np.float32(0.04), np.float32(0.3), 131, 7
    w_scale = ((rng.rand(channels) + 0.5) / 100).astype(np.float32)
    c.input("x", x)
    names = [c.const("x_s", x_scale), c.const("x_z", np.array(x_zero, np.uint8)),
             c.const("w", w), c.const("w_s", w_scale),
             c.const("w_z", np.zeros(channels, np.int8)), c.const("y_s", y_scale),
             c.const("y_z", np.array(y_zero, np.uint8)), c.const("bias", bias)]
    c.nodes.append(helper.make_node("QLinearConv", ["x"] + names, ["y"], group=channels,
                                    pads=[1, 1, 1, 1]))
    centred = x.astype(np.int64) - x_zero
    acc = np.concatenate([conv_nchw(centred[:, i:i + 1], w[i:i + 1].astype(np.int64), 1, 1)
                          for i in range(channels)], axis=1)
    acc += bias[None, :, None, None]
    multiplier = (x_scale * w_scale / y_scale)[None, :, None, None]
    c.output("y", requantize(acc, multiplier, y_zero, np.uint8))
    return c


def conv_integer(kernel, stride, pad):
    """int8 activation with a zero point, uint8 weights centred by 128."""
    c = Case()
    x = rng.randint(-128, 128, size=(1, 6, 10, 10)).astype(np.int8)
    w = rng.randint(0, 256, size=(12, 6, kernel, kernel)).astype(np.uint8)
    c.input("x", x)
    c.const("w", w)
    c.const("x_z", np.array(-5, np.int8))
    c.const("w_z", np.array(128, np.uint8))
    c.nodes.append(helper.make_node(
        "ConvInteger", ["x", "w", "x_z", "w_z"], ["y"], kernel_shape=[kernel] * 2,
        strides=[stride] * 2, pads=[pad] * 4))
    acc = conv_nchw(x.astype(np.int64) + 5, w.astype(np.int64) - 128, stride, pad)
    c.output("y", acc.astype(np.int32))
    return c


CASES = {
    "qlinearmatmul_u8": lambda: qlinear_matmul(np.uint8, 131, (32, 200), np.int8, 0,
                                               np.uint8, 120),
    "qlinearmatmul_s8_3d": lambda: qlinear_matmul(np.int8, -3, (2, 7, 64), np.uint8,
                                                  128, np.int8, -10),
    "dynamic_matmul": dynamic_matmul,
    "matmulinteger_large": large_matmul_integer,
    "matmulinteger_per_row": per_row_matmul_integer,
    "qlinearconv": qlinear_conv,
    "qlinearconv_depthwise": depthwise_qlinear_conv,
    "convinteger_1x1": lambda: conv_integer(1, 1, 0),
    "convinteger_3x3": lambda: conv_integer(3, 1, 1),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--kilnc", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failed = False
    for name, make in CASES.items():
        case = make()
        model = os.path.join(args.out, name + ".onnx")
        case.save(model)
        command = [args.kilnc, "run", model]
        for input_name, array in case.feeds.items():
            path = os.path.join(args.out, "%s.%s.npy" % (name, input_name))
            np.save(path, array)
            command += ["--input", "%s=%s" % (input_name, path)]
        out = os.path.join(args.out, name + ".out")
        subprocess.run(command + ["--output-dir", out], check=True,
                       stdout=subprocess.DEVNULL)
        problems = []
        for output, want in case.want.items():
            got = np.load(os.path.join(out, output + ".npy"))
            if got.dtype != want.dtype or got.shape != want.shape:
                problems.append("%s: %s%s, want %s%s" % (output, got.dtype, got.shape,
                                                         want.dtype, want.shape))
            elif want.dtype == np.float32:
                err = np.abs(got - want).max() / np.abs(want).max()
                if err > 1e-6:
                    problems.append("%s: max relative error %g" % (output, err))
            elif not np.array_equal(got, want):
                problems.append("%s: %d of %d differ" % (
                    output, np.count_nonzero(got != want), want.size))
        print("%s: %s" % (name, "; ".join(problems) if problems else "OK"))
        failed |= bool(problems)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
