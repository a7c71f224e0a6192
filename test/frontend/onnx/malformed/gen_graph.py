"""Graph structure: cycles, undefined and duplicate values, paths.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import os

import numpy as np
from onnx import helper, numpy_helper

from corpus_lib import T, vi, node, case, make_model, const


def gen_structure(w):
    x = [vi("x", T.FLOAT, [2])]
    y = [vi("y", T.FLOAT, None)]
    w.simple("cycle_two_nodes.onnx",
             [node("Add", ["x", "b"], ["a"], name="n1"),
              node("Relu", ["a"], ["b"], name="n2"),
              node("Relu", ["a"], ["y"], name="n3")], x, y, (), 2,
             "the graph has a cycle through node 'n1'",
             "n1 reads n2's output, n2 reads n1's")
    w.simple("cycle_self_loop.onnx",
             [node("Add", ["x", "a"], ["a"], name="self"),
              node("Relu", ["a"], ["y"], name="out")], x, y, (), 2,
             "the graph has a cycle through node 'self'",
             "a node that reads its own output")
    w.simple("undefined_value.onnx",
             [node("Add", ["x", "ghost"], ["y"], name="add")], x, y, (), 2,
             "node 'add' (Add) uses 'ghost', which no node, input or "
             "initializer defines", "a node input nobody defines")
    w.simple("missing_initializer.onnx",
             [node("Conv", ["x", "conv.weight"], ["y"], name="conv")],
             [vi("x", T.FLOAT, [1, 3, 8, 8])], y, (), 2,
             "uses 'conv.weight', which no node, input or initializer defines",
             "Conv weight named but absent from the initializers")
    w.simple("duplicate_node_output.onnx",
             [node("Relu", ["x"], ["h"], name="a"),
              node("Neg", ["x"], ["h"], name="b"),
              node("Relu", ["h"], ["y"], name="c")], x, y, (), 2,
             "value 'h' is defined more than once",
             "two nodes write the same output name")
    w.simple("duplicate_output_within_node.onnx",
             [node("Split", ["x"], ["h", "h"], name="split", axis=0),
              node("Relu", ["h"], ["y"], name="c")], x, y, (), 2,
             "value 'h' is defined more than once",
             "one node lists the same output twice")
    w.simple("node_output_shadows_input.onnx",
             [node("Relu", ["x"], ["x"], name="a"),
              node("Relu", ["x"], ["y"], name="b")], x, y, (), 2,
             "value 'x' is defined more than once",
             "a node output reuses a graph input's name")
    w.simple("node_output_shadows_initializer.onnx",
             [node("Relu", ["x"], ["b"], name="a"),
              node("Add", ["x", "b"], ["y"], name="b2")], x, y,
             [const("b", np.ones(2, np.float32))], 2,
             "value 'b' is defined more than once",
             "a node output reuses an initializer's name")
    w.simple("duplicate_initializer.onnx",
             [node("Add", ["x", "b"], ["y"], name="add")], x, y,
             [const("b", np.ones(2, np.float32)),
              const("b", np.full(2, 7, np.float32))], 2,
             "value 'b' is defined more than once",
             "two initializers named 'b' with different values")
    w.simple("duplicate_graph_input.onnx",
             [node("Add", ["x", "x"], ["y"], name="add")],
             [vi("x", T.FLOAT, [2]), vi("x", T.FLOAT, [3])], y, (), 2,
             "value 'x' is defined more than once",
             "two graph inputs named 'x' with different shapes")
    w.simple("graph_output_not_computed.onnx",
             [node("Relu", ["x"], ["h"], name="relu")], x,
             [vi("z", T.FLOAT, [2])], (), 2,
             "output 'z' is not computed by the graph",
             "the graph output names a value nobody computes")
    w.simple("graph_output_empty_name.onnx",
             [node("Relu", ["x"], ["h"], name="relu")], x,
             [vi("", T.FLOAT, [2])], (), 2,
             "output '' is not computed by the graph",
             "a graph output with an empty name")
    w.simple("graph_output_type_mismatch.onnx",
             [node("Relu", ["x"], ["y"], name="relu")], x,
             [vi("y", T.INT64, [7])], (), 2, "output 'y'",
             "the graph output is declared int64[7], the graph computes "
             "float[2]")
    w.simple("graph_without_outputs.onnx",
             [node("Relu", ["x"], ["h"], name="relu")], x, [], (), 2,
             "the graph has no outputs", "no graph outputs")
    sp = helper.make_sparse_tensor(
        numpy_helper.from_array(np.array([5.0], np.float32), "sw"),
        numpy_helper.from_array(np.array([1], np.int64), "sw_idx"), [4])
    m = make_model([node("Add", ["x4", "sw"], ["y"], name="add")],
                   [vi("x4", T.FLOAT, [4])], y, sparse=[sp])
    w.model("sparse_initializer.onnx", m, 3, "sparse",
            "a valid sparse_initializer: unsupported, must not be reported "
            "as an undefined value")
    # A node name with invalid UTF-8 (names are opaque bytes) and an error.
    # "mm\u00ff" is 4 bytes of UTF-8; swap them for 4 bytes that are not.
    n = node("MatMul", ["a", "b"], ["y"], name="mm\u00ff")
    m = make_model([n], [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [4, 2])],
                   y)
    data = m.SerializeToString()
    assert data.count("mm\u00ff".encode()) == 1
    data = data.replace("mm\u00ff".encode(), b"mm\xff\xfe")
    w.bytes("invalid_utf8_node_name.onnx", data, 2,
            "contracting dimensions differ: lhs has 3, rhs has 4",
            "a node name that is not UTF-8, on a shape error")




def gen_misc(w):
    os.makedirs(w.path("directory_named_like_a_model.onnx"), exist_ok=True)
    case("directory_named_like_a_model.onnx", 2, "cannot read the model",
         "the model path is a directory")
