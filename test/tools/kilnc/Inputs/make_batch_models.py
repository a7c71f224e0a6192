#!/usr/bin/python3
"""Models of batch-sizes.test and packed-variants.test (kiln-serve).

make_batch_models.py OUT     writes the models and inputs/expected outputs
make_batch_models.py check GOT.npy WANT.npy   compares two arrays

dense:      y = relu(x @ W + b) + z, x [N,5], z [N,3] with N symbolic
fixed:      the same with the batch fixed at 1
scalar_out: s = sum(x), a scalar (does not follow the batch)
Weights are small integers over 4, so every result is exact in fp32."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

W = (np.arange(15, dtype=np.float32).reshape(5, 3) % 7 - 3) / 4
B = np.array([0.5, -1, 0.25], dtype=np.float32)


def reference(x, z):
    return np.maximum(x @ W + B, 0) + z


def save(out, name, batch, outputs, nodes):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 5]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [batch, 3])],
        outputs,
        [numpy_helper.from_array(W, "W"), numpy_helper.from_array(B, "b")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def dense_nodes():
    return [helper.make_node("MatMul", ["x", "W"], ["m"]),
            helper.make_node("Add", ["m", "b"], ["a"]),
            helper.make_node("Relu", ["a"], ["r"]),
            helper.make_node("Add", ["r", "z"], ["y"])]


def main():
    if sys.argv[1] == "check":
        got, want = np.load(sys.argv[2]), np.load(sys.argv[3])
        if got.shape != want.shape or not np.array_equal(got, want):
            sys.exit("mismatch: %s vs %s, %s" % (got.shape, want.shape,
                                                 np.abs(got - want).max()))
        print("equal", got.shape)
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    y = lambda batch: helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                    [batch, 3])
    save(out, "dense", "N", [y("N")], dense_nodes())
    save(out, "fixed", 1, [y(1)], dense_nodes())
    save(out, "scalar_out", "N",
         [helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
         [helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
          helper.make_node("Identity", ["z"], ["unused"])])
    for rows in (1, 4, 16):
        x = (np.arange(rows * 5, dtype=np.float32).reshape(rows, 5) % 9 - 4) / 2
        z = (np.arange(rows * 3, dtype=np.float32).reshape(rows, 3) % 5) / 8
        np.save(os.path.join(out, "x%d.npy" % rows), x)
        np.save(os.path.join(out, "z%d.npy" % rows), z)
        np.save(os.path.join(out, "y%d.npy" % rows), reference(x, z))


if __name__ == "__main__":
    main()
