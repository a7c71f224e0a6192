"""Models for compile-cache.test: y = x . W + b as ONNX, once with the
weights inside the model and once with them in an external data file,
and an input x of ones."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
weights = numpy_helper.from_array(
    rng.standard_normal((4, 3)).astype(np.float32), "w")
bias = numpy_helper.from_array(rng.standard_normal(3).astype(np.float32), "b")
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["xw"], name="matmul"),
     helper.make_node("Add", ["xw", "b"], ["y"], name="add")],
    "affine",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    [weights, bias])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.save(model, os.path.join(out, "plain.onnx"))
onnx.save(model, os.path.join(out, "external.onnx"),
          save_as_external_data=True, all_tensors_to_one_file=True,
          location="external.bin", size_threshold=0)
np.save(os.path.join(out, "x.npy"), np.ones((2, 4), np.float32))
