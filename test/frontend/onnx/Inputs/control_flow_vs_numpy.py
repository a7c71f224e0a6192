#!/usr/bin/python3
"""control_flow_vs_numpy.py OUTDIR --kilnc KILNC: If, Loop and Scan graphs
(bodies reading the enclosing graph's values, shadowed names, nesting,
early exit, scan directions and axes) against numpy; refusals: a loop whose
condition depends on data (exit 3), a loop past the iteration budget
(exit 3). Fixed seed."""
import numpy as np
from onnx import TensorProto, helper

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
node = helper.make_node
cases = cases_from_command_line()
F = TensorProto.FLOAT


def vi(name, elem=F, shape=None):
    return helper.make_tensor_value_info(name, elem, shape)


def graph(name, nodes, inputs, outputs, inits=()):
    return helper.make_graph(nodes, name, inputs, outputs, list(inits))


def const(name, array):
    array = np.asarray(array)
    elem = {np.dtype(np.int64): TensorProto.INT64,
            np.dtype(np.bool_): TensorProto.BOOL}.get(array.dtype, F)
    return node("Constant", [], [name], value=helper.make_tensor(
        name, elem, array.shape, array.ravel().tolist()))


x = rng.standard_normal((3, 4)).astype(np.float32)
i64 = lambda v: np.array(v, np.int64)

# If on a condition computed from data: both branches read x from the
# enclosing graph; the output is selected.
branches = dict(
    then_branch=graph("then", [node("Add", ["x", "x"], ["t"])], [],
                      [vi("t")]),
    else_branch=graph("else", [const("one", np.float32(1)),
                               node("Sub", ["x", "one"], ["e"])], [],
                      [vi("e")]))
for sign, name in [(1, "if_data_then"), (-1, "if_data_else")]:
    data = np.abs(x) * sign
    cases.add(name,
              [node("ReduceSum", ["x"], ["s"], keepdims=0),
               const("zero", np.float32(0)),
               node("Greater", ["s", "zero"], ["c"]),
               node("If", ["c"], ["y"], **branches)],
              {"x": data}, {"y": data * 2 if sign > 0 else data - 1})
# If whose branches differ in shape: the condition is a graph input that
# `kilnc run` binds.
cases.add("if_shapes_differ_bound",
          [node("If", ["c"], ["y"], then_branch=graph(
              "then", [node("Identity", ["x"], ["t"])], [], [vi("t")]),
              else_branch=graph("else", [node("Transpose", ["x"], ["e"])],
                                [], [vi("e")]))],
          {"x": x, "c": np.array(False)}, {"y": x.T.copy()})

# Loop with M = 5 and an early exit after i == 2: a carried sum of rows
# of x (indexed by the iteration number), a scan output of the running
# sum, and a body value named like an outer one ("s").
body = graph("body",
             [node("Unsqueeze", ["i", "axes0"], ["i1"]),
              node("Add", ["i1", "one64"], ["i2"]),
              node("Slice", ["x", "i1", "i2"], ["row"]),
              node("Add", ["acc", "row"], ["s"]),
              node("Less", ["i", "two64"], ["go"]),
              node("Identity", ["s"], ["scan"])],
             [vi("i", TensorProto.INT64, []), vi("c", TensorProto.BOOL, []),
              vi("acc", F, [1, 4])],
             [vi("go", TensorProto.BOOL, []), vi("s"), vi("scan")],
             [helper.make_tensor("axes0", TensorProto.INT64, [1], [0]),
              helper.make_tensor("one64", TensorProto.INT64, [1], [1]),
              helper.make_tensor("two64", TensorProto.INT64, [], [2])])
running = np.cumsum(x, 0)
cases.add("loop_early_exit_scan",
          [const("m", i64(5)), const("s", np.float32(7)),
           node("Loop", ["m", "", "acc0"], ["total", "partial"], body=body),
           node("Add", ["total", "s"], ["y"])],
          {"x": x, "acc0": np.zeros((1, 4), np.float32)},
          {"y": running[2:3] + 7, "partial": running[:, None, :]})
# Nested loops: 2 x 3 iterations adding x each time.
inner = graph("inner", [node("Add", ["v", "x"], ["w"]),
                        node("Identity", ["c"], ["c2"])],
              [vi("j", TensorProto.INT64, []), vi("c", TensorProto.BOOL, []),
               vi("v")], [vi("c2", TensorProto.BOOL, []), vi("w")])
outer = graph("outer", [const("three", i64(3)),
                        node("Loop", ["three", "", "v"], ["w"], body=inner),
                        node("Identity", ["c"], ["c2"])],
              [vi("i", TensorProto.INT64, []), vi("c", TensorProto.BOOL, []),
               vi("v")], [vi("c2", TensorProto.BOOL, []), vi("w")])
cases.add("loop_nested",
          [const("two", i64(2)), const("yes", np.array(True)),
           node("Loop", ["two", "yes", "x"], ["y"], body=outer)],
          {"x": x}, {"y": x * 7})
# Scan (opset 11): two scan inputs, one read backwards along axis 1; a
# state; scan outputs stacked along axis 1 and in reverse.
a = rng.standard_normal((2, 5)).astype(np.float32)
b = rng.standard_normal((2, 5)).astype(np.float32)
scan_body = graph("scan_body",
                  [node("Add", ["st", "u"], ["st2"]),
                   node("Mul", ["st2", "v"], ["out"])],
                  [vi("st", F, [2]), vi("u", F, [2]), vi("v", F, [2])],
                  [vi("st2", F, [2]), vi("out", F, [2])])
state, outs = np.zeros(2, np.float32), []
for t in range(5):
    state = state + a[:, t]
    outs.append(state * b[:, 4 - t])
cases.add("scan_directions_axes",
          [node("Scan", ["s0", "a", "b"], ["final", "y"], body=scan_body,
                num_scan_inputs=2, scan_input_axes=[1, 1],
                scan_input_directions=[0, 1], scan_output_axes=[1],
                scan_output_directions=[1])],
          {"s0": np.zeros(2, np.float32), "a": a, "b": b},
          {"final": state, "y": np.stack(outs[::-1], 1)})

# Refusals.
data_cond = graph("body", [node("ReduceSum", ["v"], ["s"], keepdims=0),
                           const("zero", np.float32(0)),
                           node("Greater", ["s", "zero"], ["go"]),
                           node("Sub", ["v", "x"], ["w"])],
                  [vi("i", TensorProto.INT64, []),
                   vi("c", TensorProto.BOOL, []), vi("v")],
                  [vi("go", TensorProto.BOOL, []), vi("w")])
cases.add("loop_data_condition",
          [const("yes", np.array(True)),
           node("Loop", ["", "yes", "v0"], ["y"], body=data_cond)],
          {"x": np.abs(x), "v0": np.abs(x) * 3}, {"y": x}, expect_exit=3,
          expect_error="the body's condition (it decides how many "
                       "iterations run) must be a constant")
cases.add("loop_over_budget",
          [const("m", i64(5000)),
           node("Loop", ["m", "", "x"], ["y"], body=graph(
               "b", [node("Identity", ["c"], ["c2"]),
                     node("Identity", ["v"], ["w"])],
               [vi("i", TensorProto.INT64, []),
                vi("c", TensorProto.BOOL, []), vi("v")],
               [vi("c2", TensorProto.BOOL, []), vi("w")]))],
          {"x": x}, {"y": x}, expect_exit=3,
          expect_error="budget of iterations (4096)")
cases.check()
