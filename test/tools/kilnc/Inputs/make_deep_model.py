"""A model deep enough that its CPU code is cut into parts, optimised and
generated on threads (CodegenParts.h): 24 MatMul+Tanh layers of different
widths, so that no two dispatches share a kernel. Writes the model, an
input and the output numpy computes (in float64, then rounded).

usage: make_deep_model.py OUT.onnx IN.npy REF.npy
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
widths = [16 + 3 * i for i in range(25)]
nodes, initializers = [], []
x = rng.standard_normal((4, widths[0])).astype(np.float32)
expected = x.astype(np.float64)
previous = "x"
for layer in range(24):
    w = (rng.standard_normal((widths[layer], widths[layer + 1])) /
         np.sqrt(widths[layer])).astype(np.float32)
    initializers.append(numpy_helper.from_array(w, f"w{layer}"))
    nodes.append(helper.make_node("MatMul", [previous, f"w{layer}"],
                                  [f"m{layer}"], name=f"matmul{layer}"))
    out = "y" if layer == 23 else f"t{layer}"
    nodes.append(helper.make_node("Tanh", [f"m{layer}"], [out],
                                  name=f"tanh{layer}"))
    expected = np.tanh(expected @ w.astype(np.float64))
    previous = out
graph = helper.make_graph(
    nodes, "deep",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, widths[0]])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, widths[-1]])],
    initializer=initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
np.save(sys.argv[2], x)
np.save(sys.argv[3], expected.astype(np.float32))
