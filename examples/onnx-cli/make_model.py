#!/usr/bin/env python3
"""Writes a small ONNX classifier and test data for the onnx-cli example.

  make_model.py OUT_DIR

OUT_DIR/model.onnx: x[N, 16] -> MatMul+Add -> Relu -> MatMul+Add -> Softmax,
with a symbolic batch dimension N (give it with --input-shape x=2x16).
OUT_DIR/x.npy: a batch of 2 inputs; OUT_DIR/expected.npy: the probabilities
computed with NumPy, independently of Kiln.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    w1 = rng.standard_normal((16, 32)).astype(np.float32) * 0.3
    b1 = rng.standard_normal(32).astype(np.float32) * 0.1
    w2 = rng.standard_normal((32, 10)).astype(np.float32) * 0.3
    b2 = rng.standard_normal(10).astype(np.float32) * 0.1
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h0"], name="fc1"),
        helper.make_node("Add", ["h0", "b1"], ["h1"], name="fc1_bias"),
        helper.make_node("Relu", ["h1"], ["h2"], name="relu"),
        helper.make_node("MatMul", ["h2", "w2"], ["l0"], name="fc2"),
        helper.make_node("Add", ["l0", "b2"], ["logits"], name="fc2_bias"),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax",
                         axis=-1),
    ]
    graph = helper.make_graph(
        nodes, "classifier",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 16])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["N", 10])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
         numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(b2, "b2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "model.onnx"))

    x = rng.standard_normal((2, 16)).astype(np.float32)
    logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    np.save(os.path.join(out, "x.npy"), x)
    np.save(os.path.join(out, "expected.npy"), e / e.sum(axis=-1, keepdims=True))


if __name__ == "__main__":
    main()
