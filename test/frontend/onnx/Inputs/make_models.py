#!/usr/bin/python3
"""Writes the small ONNX models of the importer's lit tests into a folder.

Each model exercises one importer behaviour; see the .test files for what is
checked. Deterministic (fixed seeds).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.RandomState(0)


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def tensor(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


# An MLP as PyTorch exports it: Gemm + Relu + Gemm + Softmax, symbolic batch.
w1 = numpy_helper.from_array(rng.randn(8, 4).astype(np.float32), "fc1.weight")
b1 = numpy_helper.from_array(rng.randn(8).astype(np.float32), "fc1.bias")
w2 = numpy_helper.from_array(rng.randn(3, 8).astype(np.float32), "fc2.weight")
b2 = numpy_helper.from_array(rng.randn(3).astype(np.float32), "fc2.bias")
save("mlp", [
    helper.make_node("Gemm", ["input", "fc1.weight", "fc1.bias"], ["h"], name="/fc1/Gemm", transB=1),
    helper.make_node("Relu", ["h"], ["a"], name="/act/Relu"),
    helper.make_node("Gemm", ["a", "fc2.weight", "fc2.bias"], ["logits"], name="/fc2/Gemm", transB=1),
    helper.make_node("Softmax", ["logits"], ["probs"], name="/head/Softmax", axis=1),
], [tensor("input", TensorProto.FLOAT, ["batch", 4])],
   [tensor("probs", TensorProto.FLOAT, ["batch", 3])], [w1, b1, w2, b2])
np.save(os.path.join(out, "mlp_input.npy"), rng.randn(2, 4).astype(np.float32))

# A flatten written the way exporters do: Shape -> Gather -> Unsqueeze ->
# Concat -> Reshape. Everything but the Reshape must fold away.
save("shape_chain", [
    helper.make_node("Shape", ["x"], ["s"], name="shape"),
    helper.make_node("Constant", [], ["zero"], name="zero",
                     value=numpy_helper.from_array(np.array(0, np.int64))),
    helper.make_node("Gather", ["s", "zero"], ["n"], name="batch"),
    helper.make_node("Unsqueeze", ["n", "axes"], ["n1"], name="unsq"),
    helper.make_node("Constant", [], ["minus1"], name="minus1",
                     value=numpy_helper.from_array(np.array([-1], np.int64))),
    helper.make_node("Concat", ["n1", "minus1"], ["target"], name="cat", axis=0),
    helper.make_node("Reshape", ["x", "target"], ["y"], name="flatten"),
], [tensor("x", TensorProto.FLOAT, [2, 3, 4])], [tensor("y", TensorProto.FLOAT, [2, 12])],
   [numpy_helper.from_array(np.array([0], np.int64), "axes")])

# Every unsupported operator is listed at once.
save("unsupported", [
    helper.make_node("RandomUniformLike", ["x"], ["a"], name="random"),
    helper.make_node("StringNormalizer", ["x"], ["b"], name="text1"),
    helper.make_node("StringNormalizer", ["b"], ["c"], name="text2"),
    helper.make_node("Relu", ["c"], ["y"], name="fine"),
], [tensor("x", TensorProto.FLOAT, [2])], [tensor("y", TensorProto.FLOAT, [2])])

# A shape error located at its node.
save("bad_matmul", [
    helper.make_node("MatMul", ["a", "b"], ["y"], name="/encoder/attn/MatMul"),
], [tensor("a", TensorProto.FLOAT, [2, 3]), tensor("b", TensorProto.FLOAT, [4, 5])],
   [tensor("y", TensorProto.FLOAT, None)])

# Weights stored as external data next to the model.
weights = rng.randn(3, 3).astype(np.float32)
with open(os.path.join(out, "weights.bin"), "wb") as f:
    f.write(b"\0" * 16 + weights.tobytes())
ext = numpy_helper.from_array(weights, "w")
ext.ClearField("raw_data")
ext.data_location = TensorProto.EXTERNAL
for key, value in (("location", "weights.bin"), ("offset", "16"), ("length", "36")):
    entry = ext.external_data.add()
    entry.key, entry.value = key, value
save("external", [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
     [tensor("x", TensorProto.FLOAT, [1, 3])], [tensor("y", TensorProto.FLOAT, [1, 3])], [ext])
np.save(os.path.join(out, "external_expected.npy"), np.ones((1, 3), np.float32) @ weights)
np.save(os.path.join(out, "ones13.npy"), np.ones((1, 3), np.float32))

# Opset 11 Softmax flattens at `axis` (default 1) and normalises whole rows.
save("softmax_v11", [helper.make_node("Softmax", ["x"], ["y"], name="sm")],
     [tensor("x", TensorProto.FLOAT, [2, 3, 4])], [tensor("y", TensorProto.FLOAT, [2, 3, 4])],
     opset=11)
x = rng.randn(2, 3, 4).astype(np.float32)
np.save(os.path.join(out, "softmax_x.npy"), x)
flat = x.reshape(2, 12)
e = np.exp(flat - flat.max(axis=1, keepdims=True))
np.save(os.path.join(out, "softmax_v11_expected.npy"), (e / e.sum(axis=1, keepdims=True)).reshape(2, 3, 4))
