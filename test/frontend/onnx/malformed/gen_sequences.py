"""Sequence operators (resolved at import) and the Gradient operator.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np

from corpus_lib import T, vi, node, make_model, const


def gen_sequences(w):
    x = [vi("x", T.FLOAT, [6, 2])]
    y = [vi("y", T.FLOAT, None)]

    def seq(rel, nodes, message, why, inits=(), exit_code=2, inputs=x):
        w.simple(rel, nodes, inputs, y, list(inits), exit_code, message, why,
                 opset=13)

    construct = node("SequenceConstruct", ["x", "x"], ["s"], name="construct")
    seq("sequence_at_tensor.onnx",
        [node("SequenceAt", ["x", "zero"], ["y"], name="at")],
        "input #0 (input_sequence) is a tensor, a sequence is expected",
        "SequenceAt of a tensor", [const("zero", np.int64(0))])
    seq("sequence_as_tensor_operand.onnx",
        [construct, node("Relu", ["s"], ["y"], name="relu")],
        "is a sequence, a tensor is expected", "Relu of a sequence")
    seq("sequence_at_missing_position.onnx",
        [construct, node("SequenceAt", ["s"], ["y"], name="at")],
        "missing input #1 (position)", "SequenceAt without its position")
    seq("sequence_at_two_positions.onnx",
        [construct, node("SequenceAt", ["s", "p"], ["y"], name="at")],
        "position must be one integer, it has 2 elements",
        "a position of two values", [const("p", np.int64([0, 1]))])
    seq("sequence_at_float_position.onnx",
        [construct, node("SequenceAt", ["s", "p"], ["y"], name="at")],
        "must hold integers", "a float position",
        [const("p", np.float32(0))])
    seq("sequence_insert_type_mismatch.onnx",
        [construct, node("SequenceInsert", ["s", "i"], ["t"], name="insert"),
         node("SequenceAt", ["t", "p"], ["y"], name="at")],
        "the tensor's element type 'i64' differs from the sequence's 'f32'",
        "an int64 tensor inserted into a float sequence",
        [const("i", np.int64([1])), const("p", np.int64(0))])
    seq("sequence_erase_empty.onnx",
        [node("SequenceEmpty", [], ["e"], name="empty"),
         node("SequenceErase", ["e"], ["f"], name="erase"),
         node("SequenceAt", ["f", "p"], ["y"], name="at")],
        "cannot erase from an empty sequence", "SequenceErase of []",
        [const("p", np.int64(0))])
    seq("sequence_empty_bad_dtype.onnx",
        [node("SequenceEmpty", [], ["e"], name="empty", dtype=1234),
         node("SequenceLength", ["e"], ["y"], name="length")],
        "1234", "SequenceEmpty of data type 1234")
    seq("split_to_sequence_zero_split.onnx",
        [node("SplitToSequence", ["x", "k"], ["s"], name="split"),
         node("SequenceAt", ["s", "p"], ["y"], name="at")],
        "split must be positive, it is 0", "a scalar split of 0 (a divisor)",
        [const("k", np.int64(0)), const("p", np.int64(0))])
    seq("split_to_sequence_sizes_sum.onnx",
        [node("SplitToSequence", ["x", "k"], ["s"], name="split"),
         node("SequenceAt", ["s", "p"], ["y"], name="at")],
        "split sizes add up to 5, the axis has 6", "sizes [2, 3] for 6 rows",
        [const("k", np.int64([2, 3])), const("p", np.int64(0))])
    seq("split_to_sequence_bad_axis.onnx",
        [node("SplitToSequence", ["x"], ["s"], name="split", axis=2),
         node("SequenceAt", ["s", "p"], ["y"], name="at")],
        "axis 2 is out of range for rank 2", "axis 2 of a matrix",
        [const("p", np.int64(0))])
    seq("concat_from_sequence_no_axis.onnx",
        [construct, node("ConcatFromSequence", ["s"], ["y"], name="concat")],
        "missing attribute 'axis'", "ConcatFromSequence without its axis")
    seq("concat_from_sequence_empty.onnx",
        [node("SequenceEmpty", [], ["e"], name="empty"),
         node("ConcatFromSequence", ["e"], ["y"], name="concat", axis=0)],
        "cannot concatenate an empty sequence", "ConcatFromSequence of []")
    seq("concat_from_sequence_new_axis_range.onnx",
        [construct, node("ConcatFromSequence", ["s"], ["y"], name="concat",
                         axis=3, new_axis=1)],
        "axis 3 is out of range for rank 3",
        "new_axis 1 allows axes up to the rank, 3 is past it")

    # Gradient (ai.onnx.preview.training).
    a = [vi("a", T.FLOAT, [2])]
    training = [("ai.onnx.preview.training", 1)]

    def grad(rel, message, why, exit_code=2, outputs=("g",), pre=(),
             **attrs):
        nodes = list(pre) + [node("Gradient", ["a"], list(outputs),
                                  name="grad",
                                  domain="ai.onnx.preview.training", **attrs)]
        w.model(rel, make_model(nodes, a, [vi(o, T.FLOAT, None)
                                           for o in outputs],
                                extra_opsets=training),
                exit_code, message, why)

    relu = node("Relu", ["a"], ["r"], name="relu")
    grad("gradient_no_xs.onnx", "attribute 'xs' must name one or more tensors",
         "Gradient without xs", pre=[relu], y="r")
    grad("gradient_unknown_y.onnx",
         "(Gradient) uses 'nowhere', which no node, input or initializer "
         "defines",
         "y names nothing", pre=[relu], xs=["a"], y="nowhere")
    grad("gradient_no_y.onnx", "attribute 'y' must name a tensor",
         "Gradient without y", pre=[relu], xs=["a"])
    grad("gradient_unknown_x.onnx", "xs names 'b', which is not a tensor",
         "xs names nothing", pre=[relu], xs=["b"], y="r")
    grad("gradient_output_count.onnx", "the node has 2 outputs for 1 tensors",
         "two outputs for one x", pre=[relu], outputs=("g", "h"), xs=["a"],
         y="r")
    grad("gradient_no_rule.onnx", "no derivative rule for 'kiln.abs'",
         "Abs has no rule (exit 3)", exit_code=3,
         pre=[node("Abs", ["a"], ["r"], name="abs")], xs=["a"], y="r")

