"""A model whose Log, deep inside one fused elementwise group, takes the
log of negative numbers when the input is positive: the seeded NaN that
--check-numerics must trace back to node 'log_of_negative'.

usage: make_nan_model.py OUT.onnx
"""
import sys

import onnx
from onnx import TensorProto, helper

nodes = [
    helper.make_node("MatMul", ["x", "w"], ["h"], name="project"),
    helper.make_node("Mul", ["h", "two"], ["scaled"], name="scale"),
    helper.make_node("Neg", ["scaled"], ["flipped"], name="flip"),
    helper.make_node("Log", ["flipped"], ["logged"], name="log_of_negative"),
    helper.make_node("Exp", ["logged"], ["y"], name="exp"),
]
graph = helper.make_graph(
    nodes,
    "nan_inside_group",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 8])],
    initializer=[
        helper.make_tensor("w", TensorProto.FLOAT, [8, 8], [0.125] * 64),
        helper.make_tensor("two", TensorProto.FLOAT, [], [2.0]),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
