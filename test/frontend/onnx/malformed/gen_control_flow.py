"""If, Loop and Scan: attributes, bodies and trip counts.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np
from onnx import helper

from corpus_lib import T, vi, node, const


def body(nodes, inputs, outputs):
    return helper.make_graph(nodes, "body", inputs, outputs)


def gen_control_flow(w):
    x = [vi("x", T.FLOAT, [2, 3])]
    y = [vi("y", T.FLOAT, None)]
    yes = const("yes", np.array(True))

    def case(rel, nodes, message, why, inits=(), exit_code=2, inputs=x):
        w.simple(rel, nodes, inputs, y, list(inits), exit_code, message, why)

    identity = body([node("Identity", ["x"], ["t"])], [],
                    [vi("t", T.FLOAT, None)])
    case("if_missing_else.onnx",
         [node("If", ["yes"], ["y"], name="if", then_branch=identity)],
         "attribute 'else_branch' must be a graph", "If without else_branch",
         [yes])
    case("if_cond_float.onnx",
         [node("If", ["x"], ["y"], name="if", then_branch=identity,
               else_branch=identity)],
         "cond must be one boolean", "a float matrix as the condition")
    two = body([node("Identity", ["x"], ["t"]), node("Identity", ["x"], ["u"])],
               [], [vi("t", T.FLOAT, None), vi("u", T.FLOAT, None)])
    case("if_branch_output_count.onnx",
         [node("If", ["c"], ["y"], name="if", then_branch=identity,
               else_branch=two)],
         "the branches have 1 and 2 outputs",
         "branches of different arity on a run-time condition",
         inputs=x + [vi("c", T.BOOL, [])])
    case("if_body_unsupported_op.onnx",
         [node("If", ["yes"], ["y"], name="if", else_branch=identity,
               then_branch=body([node("FancyOp", ["x"], ["t"])], [],
                                [vi("t", T.FLOAT, None)]))],
         "unsupported operator FancyOp in the body 'body'",
         "an unknown operator inside a branch (exit 3)", [yes], exit_code=3)
    case("if_body_undefined_value.onnx",
         [node("If", ["yes"], ["y"], name="if", else_branch=identity,
               then_branch=body([node("Relu", ["nowhere"], ["t"])], [],
                                [vi("t", T.FLOAT, None)]))],
         "uses 'nowhere', which no node, input or initializer defines",
         "a branch reading a value nobody defines", [yes])

    seq_branch = body([node("SequenceConstruct", ["x"], ["t"])], [],
                      [vi("t", T.FLOAT, None)])
    case("if_sequences_runtime_cond.onnx",
         [node("If", ["c"], ["s"], name="if", then_branch=seq_branch,
               else_branch=seq_branch),
          node("ConcatFromSequence", ["s"], ["y"], name="cat", axis=0)],
         "cond (the branches' outputs differ in type or are sequences) must "
         "be a constant", "sequences chosen by a run-time condition (exit 3)",
         inputs=x + [vi("c", T.BOOL, [])], exit_code=3)
    step = body([node("Identity", ["c"], ["c2"]),
                 node("Identity", ["v"], ["w"])],
                [vi("i", T.INT64, []), vi("c", T.BOOL, []),
                 vi("v", T.FLOAT, None)],
                [vi("c2", T.BOOL, []), vi("w", T.FLOAT, None)])
    case("loop_forever.onnx",
         [node("Loop", ["", "", "x"], ["y"], name="loop", body=step)],
         "a Loop without M or cond never ends", "neither M nor cond")
    case("loop_negative_trip_count.onnx",
         [node("Loop", ["m", "", "x"], ["y"], name="loop", body=step)],
         "M must be one non-negative integer", "M = -1",
         [const("m", np.int64(-1))])
    case("loop_body_arity.onnx",
         [node("Loop", ["m", "", "x", "x"], ["y", "z"], name="loop",
               body=step)],
         "the body must take (i, cond, 2 values)",
         "two carried values for a body of one", [const("m", np.int64(2))])
    case("loop_huge_trip_count.onnx",
         [node("Loop", ["m", "", "x"], ["y"], name="loop", body=step)],
         "budget of iterations (4096)",
         "M = 2^62 (exit 3, not 2^62 copies of the body)",
         [const("m", np.int64(1 << 62))], exit_code=3)

    scan_body = body([node("Add", ["s", "u"], ["s2"]),
                      node("Identity", ["s2"], ["o"])],
                     [vi("s", T.FLOAT, [3]), vi("u", T.FLOAT, [3])],
                     [vi("s2", T.FLOAT, [3]), vi("o", T.FLOAT, [3])])
    s0 = const("s0", np.zeros(3, np.float32))
    case("scan_no_scan_inputs.onnx",
         [node("Scan", ["s0", "x"], ["y", "z"], name="scan", body=scan_body,
               num_scan_inputs=0)],
         "num_scan_inputs must be in [1, 2]", "num_scan_inputs 0", [s0])
    case("scan_lengths_differ.onnx",
         [node("Scan", ["s0", "x", "x2"], ["y", "z"], name="scan",
               body=scan_body, num_scan_inputs=2)],
         "the scan inputs have different lengths (2 and 4)",
         "scan inputs of 2 and 4 steps",
         [s0, const("x2", np.zeros((4, 3), np.float32))])
    case("scan_output_axes_count.onnx",
         [node("Scan", ["s0", "x"], ["y", "z"], name="scan", body=scan_body,
               num_scan_inputs=1, scan_output_axes=[0, 1])],
         "attribute 'scan_output_axes' must have 1 entries",
         "two output axes for one scan output", [s0])
    case("scan_input_axis_out_of_range.onnx",
         [node("Scan", ["s0", "x"], ["y", "z"], name="scan", body=scan_body,
               num_scan_inputs=1, scan_input_axes=[5])],
         "axis 5 is out of range for rank 2", "scan_input_axes [5]", [s0])
