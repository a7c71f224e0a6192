#!/usr/bin/python3
"""Writes the models of integers.test: unsigned integer arithmetic (order,
division, casts, BitShift) at the edges of each type's range, and the
quantized operators, each with a NumPy reference written from the ONNX
specification. Deterministic (fixed seed)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.RandomState(0)
ONNX_TYPE = {np.float32: TensorProto.FLOAT, np.int32: TensorProto.INT32,
             np.int64: TensorProto.INT64, np.int8: TensorProto.INT8,
             np.uint8: TensorProto.UINT8, np.uint16: TensorProto.UINT16,
             np.uint32: TensorProto.UINT32, np.uint64: TensorProto.UINT64,
             np.bool_: TensorProto.BOOL}


def case(name, nodes, inputs, outputs, inits=(), opset=13):
    """`inputs`: (name, array) graph inputs; `outputs`: (name, expected)."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype.type], a.shape)
         for n, a in inputs],
        [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype.type], a.shape)
         for n, a in outputs],
        [numpy_helper.from_array(a, n) for n, a in inits])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))
    for n, a in inputs:
        np.save(os.path.join(out, f"{name}.{n}.npy"), a)
    for n, a in outputs:
        np.save(os.path.join(out, f"{name}.expected_{n}.npy"), a)


def node(op, inputs, outputs, **attrs):
    return helper.make_node(op, inputs, outputs, name="the_" + op.lower(), **attrs)


# uint64 division and remainder across the top bit (the signed-division
# path of kiln-lower-unsigned), with a broadcast divisor row.
top = np.uint64(1 << 63)
a = np.array([[2**64 - 1, top + np.uint64(5), 17, top],
              [12345678901234567890, 1, top - np.uint64(1), 2**64 - 2]], np.uint64)
b = np.array([3, top + np.uint64(1), 2**64 - 1, 7], np.uint64)
case("uint64_div_mod", [node("Div", ["a", "b"], ["q"]), node("Mod", ["a", "b"], ["r"])],
     [("a", a), ("b", b)], [("q", a // b), ("r", a % b)])

# uint8 order and widening: max, a comparison and a cast to float.
x = np.array([0, 1, 127, 128, 200, 255], np.uint8)
y = np.array([255, 0, 128, 127, 200, 1], np.uint8)
case("uint8_order_cast",
     [node("Max", ["x", "y"], ["m"]), node("Less", ["x", "y"], ["lt"]),
      node("Cast", ["x"], ["f"], to=TensorProto.FLOAT)],
     [("x", x), ("y", y)],
     [("m", np.maximum(x, y)), ("lt", x < y), ("f", x.astype(np.float32))])

# BitShift, both directions; a count of the width or more gives 0.
x = np.array([[1, 0x8001, 0xFFFF], [3, 12, 0x00F0]], np.uint16)
s = np.array([15, 1, 16], np.uint16)
shift = np.minimum(s, 15)
case("bitshift_uint16",
     [node("BitShift", ["x", "s"], ["l"], direction="LEFT"),
      helper.make_node("BitShift", ["x", "s"], ["r"], name="right", direction="RIGHT")],
     [("x", x), ("s", s)],
     [("l", np.where(s >= 16, 0, (x << shift)).astype(np.uint16)),
      ("r", np.where(s >= 16, 0, (x >> shift)).astype(np.uint16))])

# QuantizeLinear per channel (axis 1) to int8: ties round to even, values
# saturate; DequantizeLinear back.
x = np.array([[[-2.5, -1.5, 0.5, 1.5]], [[300.0, -300.0, 2.5, 3.5]]], np.float32)
x = np.transpose(x, (1, 0, 2)).copy()  # [1, 2, 4]: two channels on axis 1
scale = np.array([1.0, 0.5], np.float32)
zero = np.array([0, -3], np.int8)
q = np.clip(np.rint(x / scale.reshape(1, 2, 1)) + zero.reshape(1, 2, 1), -128, 127).astype(np.int8)
dq = (q.astype(np.float32) - zero.reshape(1, 2, 1)) * scale.reshape(1, 2, 1)
case("quantize_per_channel",
     [node("QuantizeLinear", ["x", "scale", "zero"], ["q"], axis=1),
      node("DequantizeLinear", ["q", "scale", "zero"], ["dq"], axis=1)],
     [("x", x)], [("q", q), ("dq", dq)],
     inits=[("scale", scale), ("zero", zero)])

# QLinearMatMul, uint8, per-tensor scales: the int32 accumulator requantised.
a = rng.randint(0, 256, (3, 5)).astype(np.uint8)
bm = rng.randint(0, 256, (5, 4)).astype(np.uint8)
a_s, a_z = np.float32(0.05), np.uint8(120)
b_s, b_z = np.float32(0.02), np.uint8(130)
y_s, y_z = np.float32(0.1), np.uint8(128)
acc = (a.astype(np.int32) - a_z) @ (bm.astype(np.int32) - b_z)
multiplier = np.float32(a_s * b_s) / y_s
yq = np.clip(np.rint(acc.astype(np.float32) * multiplier) + y_z, 0, 255).astype(np.uint8)
case("qlinear_matmul",
     [node("QLinearMatMul", ["a", "a_s", "a_z", "b", "b_s", "b_z", "y_s", "y_z"], ["y"])],
     [("a", a)], [("y", yq)],
     inits=[("a_s", np.array(a_s)), ("a_z", np.array(a_z)), ("b", bm),
            ("b_s", np.array(b_s)), ("b_z", np.array(b_z)), ("y_s", np.array(y_s)),
            ("y_z", np.array(y_z))])
