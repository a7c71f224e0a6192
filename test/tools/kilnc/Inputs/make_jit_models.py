#!/usr/bin/python3
"""Writes the models of run-jit.test: inputs that feed shapes (which `kilnc
run` compiles in, specialised to the values given), a symbolic batch
dimension, a shape computed from constants by ops the importer does not
fold, and Dropout nodes in training mode. Deterministic (fixed seed)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.RandomState(0)


def save(name, nodes, inputs, outputs, inits=(), opset=17):
    graph = helper.make_graph(nodes, name, inputs, outputs,
                              [numpy_helper.from_array(a, n) for n, a in inits])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def npy(name, array):
    np.save(os.path.join(out, name + ".npy"), array)


f32 = TensorProto.FLOAT
i64 = TensorProto.INT64

# y = relu(reshape(x, shape)), x with a symbolic batch dimension N.
save("reshape_input",
     [helper.make_node("Reshape", ["x", "shape"], ["r"], name="the_reshape"),
      helper.make_node("Relu", ["r"], ["y"], name="the_relu")],
     [helper.make_tensor_value_info("x", f32, ["N", 6]),
      helper.make_tensor_value_info("shape", i64, [2])],
     [helper.make_tensor_value_info("y", f32, None)])
x = rng.randn(2, 6).astype(np.float32)
npy("x2x6", x)
npy("x4x6", rng.randn(4, 6).astype(np.float32))
npy("shape3x4", np.array([3, 4], np.int64))
npy("shape4x3", np.array([4, 3], np.int64))
npy("reshape_3x4_expected", np.maximum(x.reshape(3, 4), 0))

# Two shape-feeding inputs on a chain: Slice's bounds are only reached once
# Reshape's shape is known (the JIT learns them in two attempts).
save("reshape_slice_inputs",
     [helper.make_node("Reshape", ["x", "shape"], ["r"], name="the_reshape"),
      helper.make_node("Slice", ["r", "starts", "ends"], ["y"], name="the_slice")],
     [helper.make_tensor_value_info("x", f32, [2, 6]),
      helper.make_tensor_value_info("shape", i64, [2]),
      helper.make_tensor_value_info("starts", i64, [1]),
      helper.make_tensor_value_info("ends", i64, [1])],
     [helper.make_tensor_value_info("y", f32, None)])
npy("starts1", np.array([1], np.int64))
npy("ends3", np.array([3], np.int64))
npy("slice_expected", x.reshape(3, 4)[1:3])

# ViT's pattern: Expand's shape from ConstantOfShape -> Mul -> Equal -> Where,
# all constants, plus a Shape of a graph input.
save("expand_constant_chain",
     [helper.make_node("ConstantOfShape", ["two"], ["ones"], name="cos",
                       value=helper.make_tensor("v", i64, [1], [1])),
      helper.make_node("Mul", ["ones", "minus_one"], ["neg"], name="mul"),
      helper.make_node("Equal", ["target", "neg"], ["eq"], name="eq"),
      helper.make_node("Where", ["eq", "ones", "target"], ["shape"], name="where"),
      helper.make_node("Expand", ["x", "shape"], ["y"], name="the_expand")],
     [helper.make_tensor_value_info("x", f32, [1, 4])],
     [helper.make_tensor_value_info("y", f32, None)],
     inits=[("two", np.array([2], np.int64)),
            ("minus_one", np.array(-1, np.int64)),
            ("target", np.array([3, -1], np.int64))])
npy("x1x4", x[:1, :4].copy())
npy("expand_expected", np.broadcast_to(x[:1, :4], (3, 4)).copy())

# A shape computed from constants by an op the importer does not evaluate
# (ReduceSum over a constant): an error that cannot suggest --bind.
save("expand_reduced_shape",
     [helper.make_node("ReduceSum", ["parts", "axis"], ["shape"], name="sum",
                       keepdims=0),
      helper.make_node("Expand", ["x", "shape"], ["y"], name="the_expand")],
     [helper.make_tensor_value_info("x", f32, [1, 4])],
     [helper.make_tensor_value_info("y", f32, None)],
     inits=[("parts", np.array([[1, 2], [2, 2]], np.int64)),
            ("axis", np.array([0], np.int64))])

# Dropout in training mode: a ratio of 0 keeps everything (the identity,
# mask all true); two nodes with the default ratio are both refused.
true = helper.make_tensor("t", TensorProto.BOOL, [], [True])
save("dropout_zero_ratio",
     [helper.make_node("Dropout", ["x", "ratio", "training"], ["y", "mask"],
                       name="the_dropout")],
     [helper.make_tensor_value_info("x", f32, [2, 6])],
     [helper.make_tensor_value_info("y", f32, None),
      helper.make_tensor_value_info("mask", TensorProto.BOOL, None)],
     inits=[("ratio", np.array(0, np.float32)),
            ("training", np.array(True))])
save("dropout_training_twice",
     [helper.make_node("Dropout", ["x", "", "training"], ["a"], name="drop1"),
      helper.make_node("Relu", ["x"], ["b"], name="relu"),
      helper.make_node("Dropout", ["b", "", "training"], ["c"], name="drop2"),
      helper.make_node("Add", ["a", "c"], ["y"], name="add")],
     [helper.make_tensor_value_info("x", f32, [2, 6])],
     [helper.make_tensor_value_info("y", f32, None)],
     inits=[("training", np.array(True))])
