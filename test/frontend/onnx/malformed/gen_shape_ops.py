"""Shape operators: constant shapes, indices, overflow.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np
from onnx import AttributeProto, helper, numpy_helper

from corpus_lib import T, vi, node, const


def gen_shape_ops(w):
    y = [vi("y", T.FLOAT, None)]
    X = [vi("x", T.FLOAT, [2, 3])]

    def one(rel, op, inputs_, inits, message, why, inputs=X, opset=13,
            exit_code=2, outputs=("y",), **attrs):
        w.simple(rel, [node(op, inputs_, list(outputs), name="n", **attrs)],
                 inputs, y, inits, exit_code, message, why, opset=opset)

    def i64(name, values):
        return const(name, np.array(values, np.int64))

    one("reverse_sequence_overflowing_length.onnx", "ReverseSequence",
        ["x", "lens"], [], "the sequences are implausibly long",
        "ReverseSequence over 2^31 - 1 steps (batch * steps^2 overflows)",
        inputs=[vi("x", T.FLOAT, [2147483647, 4]),
                vi("lens", T.INT64, [4])], opset=10)
    one("reshape_two_minus_one.onnx", "Reshape", ["x", "s"],
        [i64("s", [-1, -1])], "shape has more than one -1",
        "Reshape shape [-1, -1]")
    one("reshape_wrong_count.onnx", "Reshape", ["x", "s"], [i64("s", [4, 2])],
        "cannot reshape 6 elements into the requested shape",
        "Reshape 6 elements to 4x2")
    one("reshape_negative_dim.onnx", "Reshape", ["x", "s"],
        [i64("s", [-2, -3])], "shape has a negative dimension -2",
        "Reshape shape [-2, -3]")
    one("reshape_zero_copies_missing_dim.onnx", "Reshape", ["x", "s"],
        [i64("s", [6, 1, 0])],
        "shape copies dimension 2, which the input does not have",
        "Reshape shape [6, 1, 0] of a rank-2 input")
    one("reshape_minus_one_with_zero.onnx", "Reshape", ["x", "s"],
        [i64("s", [0, -1])], "cannot infer the -1 dimension",
        "allowzero=1 with [0, -1]", allowzero=1)
    one("reshape_overflow.onnx", "Reshape", ["x", "s"],
        [i64("s", [1 << 62, 1 << 62])], "shape is implausibly large",
        "Reshape to [2^62, 2^62]")
    one("reshape_shape_not_constant.onnx", "Reshape", ["x", "s"], [],
        "input #1 (shape) must be a constant",
        "a valid dynamic Reshape (shape is a graph input): Kiln compiles "
        "static shapes only, so 'cannot compile yet' (exit 3)",
        inputs=X + [vi("s", T.INT64, [2])], exit_code=3)
    one("reshape_float_shape.onnx", "Reshape", ["x", "s"],
        [const("s", np.array([3.0, 2.0], np.float32))],
        "input #1 (shape) must hold integers", "a float shape operand")
    one("slice_zero_step.onnx", "Slice", ["x", "st", "en", "ax", "sp"],
        [i64("st", [0]), i64("en", [2]), i64("ax", [1]), i64("sp", [0])],
        "step of axis 1 is zero", "Slice with step 0")
    one("slice_axis_twice.onnx", "Slice", ["x", "st", "en", "ax"],
        [i64("st", [0, 0]), i64("en", [1, 1]), i64("ax", [1, -1])],
        "axis -1 is sliced twice", "axes [1, -1] name one axis twice")
    one("slice_length_mismatch.onnx", "Slice", ["x", "st", "en"],
        [i64("st", [0, 0]), i64("en", [1])],
        "starts, ends, axes and steps differ in length", "2 starts, 1 end")
    one("slice_axis_out_of_range.onnx", "Slice", ["x", "st", "en", "ax"],
        [i64("st", [0]), i64("en", [1]), i64("ax", [3])],
        "axis 3 is out of range for rank 2", "Slice axis 3 of rank 2")
    one("gather_index_out_of_range.onnx", "Gather", ["x", "i"],
        [i64("i", [0, 7])],
        "index 7 is out of range for an axis of size 2",
        "constant index 7 for an axis of 2")
    one("gather_negative_index_out_of_range.onnx", "Gather", ["x", "i"],
        [i64("i", [-5])], "index -5 is out of range for an axis of size 3",
        "constant index -5 for an axis of 3", axis=1)
    one("gather_int64_min_index.onnx", "Gather", ["x", "i"],
        [i64("i", [-(1 << 63)])], "is out of range for an axis of size 2",
        "constant index INT64_MIN")
    one("gather_float_indices.onnx", "Gather", ["x", "i"],
        [const("i", np.array([1.5, 7.0], np.float32))], "indices",
        "constant float indices (must be int32/int64)")
    one("gather_axis_out_of_range.onnx", "Gather", ["x", "i"],
        [i64("i", [0])], "axis 2 is out of range for rank 2",
        "Gather axis 2 of rank 2", axis=2)
    one("gather_from_scalar.onnx", "Gather", ["x", "i"], [i64("i", [0])],
        "cannot gather from a scalar", "Gather from a rank-0 tensor",
        inputs=[vi("x", T.FLOAT, [])])
    one("split_sizes_not_summing.onnx", "Split", ["x", "s"],
        [i64("s", [1, 1])], "split sizes add up to 2, the axis has 3",
        "split [1, 1] of an axis of 3", outputs=("y", "z"), axis=1)
    one("split_negative_size.onnx", "Split", ["x", "s"],
        [i64("s", [4, -1])], "bad split size -1", "split [4, -1]",
        outputs=("y", "z"), axis=1)
    one("split_size_overflow.onnx", "Split", ["x", "s"],
        [i64("s", [(1 << 63) - 1, (1 << 63) - 1])], "bad split size",
        "split sizes whose sum overflows int64", outputs=("y", "z"), axis=1)
    one("split_count_mismatch.onnx", "Split", ["x", "s"],
        [i64("s", [1, 2])], "split has 2 sizes for 3 outputs",
        "2 sizes, 3 outputs", outputs=("y", "z", "w"), axis=1)
    one("split_uneven.onnx", "Split", ["x"], [],
        "cannot split size 3 evenly into 2 outputs",
        "even split of 3 into 2", outputs=("y", "z"), axis=1)
    one("split_attr_sizes_opset11.onnx", "Split", ["x"], [],
        "split sizes add up to 5, the axis has 3",
        "opset-11 split attribute [2, 3] for an axis of 3",
        outputs=("y", "z"), axis=1, split=[2, 3], opset=11)
    one("transpose_perm_not_permutation.onnx", "Transpose", ["x"], [],
        "permutation is not a permutation of 0..1", "perm [1, 1]",
        perm=[1, 1])
    one("transpose_perm_out_of_range.onnx", "Transpose", ["x"], [],
        "permutation is not a permutation of 0..1", "perm [0, 9]",
        perm=[0, 9])
    one("transpose_perm_negative.onnx", "Transpose", ["x"], [],
        "permutation is not a permutation of 0..1", "perm [-1, 0]",
        perm=[-1, 0])
    one("transpose_perm_wrong_length.onnx", "Transpose", ["x"], [],
        "expects 'permutation' to have 2 values, got 3", "perm [0, 1, 2]",
        perm=[0, 1, 2])
    one("transpose_perm_wrong_type.onnx", "Transpose", ["x"], [],
        "attribute 'perm' must be a list of integers", "perm given as an INT",
        perm=1)
    one("squeeze_non_unit_dim.onnx", "Squeeze", ["x", "a"], [i64("a", [1])],
        "cannot squeeze dimension 1 of size 3", "Squeeze axis of size 3")
    one("unsqueeze_duplicate_axis.onnx", "Unsqueeze", ["x", "a"],
        [i64("a", [0, 0])], "axis 0 is listed twice", "axes [0, 0]")
    one("unsqueeze_missing_axes.onnx", "Unsqueeze", ["x"], [],
        "missing axes", "opset-13 Unsqueeze without axes")
    one("unsqueeze_axis_out_of_range.onnx", "Unsqueeze", ["x", "a"],
        [i64("a", [-(1 << 63)])], "is out of range for rank 3",
        "Unsqueeze axis INT64_MIN")
    one("flatten_axis_out_of_range.onnx", "Flatten", ["x"], [],
        "axis 4 is out of range", "Flatten axis 4 of rank 2", axis=4)
    one("softmax_axis_out_of_range.onnx", "Softmax", ["x"], [],
        "axis 3 is out of range for rank 2", "Softmax axis 3", axis=3)
    one("concat_axis_out_of_range.onnx", "Concat", ["x", "x"], [],
        "axis 5 is out of range for rank 2", "Concat axis 5", axis=5)
    one("concat_shape_mismatch.onnx", "Concat", ["x", "z"], [],
        "input #1 has size 4 in dimension 1 where input #0 has 3",
        "Concat of 2x3 and 2x4 on axis 0", axis=0,
        inputs=X + [vi("z", T.FLOAT, [2, 4])])
    one("concat_rank_mismatch.onnx", "Concat", ["x", "z"], [],
        "input #1 has rank 1, input #0 has rank 2", "Concat of rank 2 and 1",
        axis=0, inputs=X + [vi("z", T.FLOAT, [3])])
    one("concat_missing_axis.onnx", "Concat", ["x", "x"], [],
        "missing attribute 'axis'", "Concat without axis")
    one("concat_axis_wrong_type.onnx", "Concat", ["x", "x"], [],
        "attribute 'axis' must be an integer", "Concat axis as a FLOAT",
        axis=1.0)
    one("concat_no_inputs.onnx", "Concat", [], [],
        "needs at least one input", "Concat with no inputs", axis=0)
    one("reduce_duplicate_axes.onnx", "ReduceMean", ["x"], [],
        "axis -1 is listed twice", "axes [1, -1]", axes=[1, -1])
    one("reduce_axis_out_of_range.onnx", "ReduceSum", ["x", "a"],
        [i64("a", [2])], "axis 2 is out of range for rank 2",
        "ReduceSum axis 2")
    one("argmax_empty_axis.onnx", "ArgMax", ["x"], [],
        "cannot take an index over the empty axis", "ArgMax over a 0-size axis",
        inputs=[vi("x", T.FLOAT, [0, 3])])
    one("pad_wrong_count.onnx", "Pad", ["x", "p"], [i64("p", [1, 1, 1])],
        "pads must have 2 x rank = 4 values, got 3", "3 pads for rank 2")
    one("pad_reflect_too_wide.onnx", "Pad", ["x", "p"],
        [i64("p", [0, 5, 0, 0])], "reflect padding of 5 needs dimension 1",
        "reflect padding wider than the input", mode="reflect")
    one("pad_unknown_mode.onnx", "Pad", ["x", "p"], [i64("p", [0, 0, 0, 0])],
        "unknown pad mode 'wrap'", "mode 'wrap'", mode="wrap")
    one("pad_negative_beyond_size.onnx", "Pad", ["x", "p"],
        [i64("p", [0, -5, 0, 0])], "is out of bounds for dimension 1",
        "pads crop 5 from an axis of 3")
    one("pad_int64_min.onnx", "Pad", ["x", "p"],
        [i64("p", [-(1 << 63), 0, 0, 0])], "is out of bounds for dimension 0",
        "pad INT64_MIN (negating it overflows)")
    one("constantofshape_negative.onnx", "ConstantOfShape", ["s"],
        [i64("s", [2, -1])], "shape has a negative dimension -1",
        "ConstantOfShape [2, -1]", inputs=[])
    one("constantofshape_huge.onnx", "ConstantOfShape", ["s"],
        [i64("s", [1 << 40, 1 << 40])], "shape is implausibly large",
        "ConstantOfShape [2^40, 2^40]", inputs=[])
    one("constantofshape_value_two_elements.onnx", "ConstantOfShape", ["s"],
        [i64("s", [2])], "value must hold one element",
        "value tensor with 2 elements", inputs=[],
        value=numpy_helper.from_array(np.zeros(2, np.float32)))
    n = node("ConstantOfShape", ["s"], ["y"], name="n")
    n.attribute.append(helper.make_attribute("value", 3))
    w.simple("constantofshape_value_wrong_type.onnx", [n], [], y,
             [i64("s", [2])], 2, "attribute 'value' must be a tensor",
             "value given as an INT, not a TENSOR")
    one("range_zero_delta.onnx", "Range", ["a", "b", "c"],
        [i64("a", 0), i64("b", 5), i64("c", 0)], "delta must not be zero",
        "Range delta 0", inputs=[])
    one("range_not_scalar.onnx", "Range", ["a", "b", "c"],
        [i64("a", [0, 1]), i64("b", 5), i64("c", 1)],
        "start, limit and delta must be scalars", "Range start [0, 1]",
        inputs=[])
    one("range_huge_count.onnx", "Range", ["a", "b", "c"],
        [const("a", np.array(0, np.float32)),
         const("b", np.array(1e30, np.float32)),
         const("c", np.array(1, np.float32))],
        "the range has implausibly many elements",
        "Range 0..1e30: the count does not fit int64", inputs=[])
    one("range_infinite.onnx", "Range", ["a", "b", "c"],
        [const("a", np.array(0, np.float32)),
         const("b", np.array(np.inf, np.float32)),
         const("c", np.array(1, np.float32))],
        "the range has implausibly many elements", "Range 0..inf",
        inputs=[])
    one("tile_wrong_count.onnx", "Tile", ["x", "r"], [i64("r", [2])],
        "repeats must have one value per dimension", "1 repeat for rank 2")
    one("tile_negative.onnx", "Tile", ["x", "r"], [i64("r", [1, -2])],
        "repeats must be non-negative", "repeats [1, -2]")
    one("tile_huge.onnx", "Tile", ["x", "r"], [i64("r", [1 << 62, 1 << 62])],
        "the tiled tensor is implausibly large", "repeats [2^62, 2^62]")
    one("expand_incompatible.onnx", "Expand", ["x", "s"], [i64("s", [4, 4])],
        "cannot expand the input to the requested shape", "Expand 2x3 to 4x4")
    one("expand_negative_shape.onnx", "Expand", ["x", "s"],
        [i64("s", [-5])], "negative", "Expand a [1] to shape [-5]",
        inputs=[vi("x", T.FLOAT, [1])])
    one("expand_overflow.onnx", "Expand", ["x", "s"],
        [i64("s", [1 << 31, 1 << 31, 1 << 31])], "implausibly large",
        "Expand to 2^93 elements", inputs=[vi("x", T.FLOAT, [1])])
    # Result shapes whose element count overflows int64, on constants: the
    # folders size their work with the wrapped count.
    one("expand_constant_result_overflow.onnx", "Expand", ["a", "s"],
        [const("a", np.array([1, 2], np.float32)), i64("s", [1 << 62, 2])],
        "implausibly large",
        "Expand a 2-element constant to [2^62, 2]: 2^63 elements", inputs=[])
    one("expand_constant_count_wraps.onnx", "Expand", ["a", "s"],
        [const("a", np.array([[1, 2]], np.float32)),
         i64("s", [1 << 32, 1 << 32, 2])], "implausibly large",
        "Expand a constant to [2^32, 2^32, 2]: the count wraps to 0",
        inputs=[])
    one("expand_constant_negative_shape.onnx", "Expand", ["a", "s"],
        [const("a", np.array([1], np.float32)), i64("s", [-5])], "negative",
        "Expand a constant [1] to shape [-5]", inputs=[])
    w.simple("concat_constant_count_wraps.onnx",
             [node("Expand", ["a", "s"], ["e"], name="expand"),
              node("Concat", ["e", "b"], ["y"], name="concat", axis=0)], [], y,
             [const("a", np.array([1], np.float32)), i64("s", [1 << 62, 4]),
              const("b", np.array([[1, 2, 3, 4]], np.float32))], 2,
             "implausibly large",
             "Concat of a [2^62, 4] splat and a [1, 4] constant: the count "
             "wraps to 4, so it is folded element by element")
    one("pad_result_overflow.onnx", "Pad", ["a", "p"],
        [const("a", np.array([[1, 2], [3, 4]], np.float32)),
         i64("p", [0, 0, 1 << 33, 1 << 33])], "implausibly large",
        "Pad a 2x2 constant to (2^33+2)^2 elements (overflows int64)",
        inputs=[])
    one("range_16m_elements.onnx", "Range", ["a", "b", "c"],
        [const("a", np.array(0, np.float32)),
         const("b", np.array((1 << 24) - 1, np.float32)),
         const("c", np.array(1, np.float32))],
        "the range has implausibly many elements",
        "hostile: a 150-byte Range of 2^24-1 elements, inside the importer's "
        "2^24 limit, takes over a minute and gigabytes to materialise",
        inputs=[])
    one("where_float_condition.onnx", "Where", ["c", "a", "b"], [],
        "must be statically shaped tensor of boolean (i1) values",
        "Where with a float condition",
        inputs=[vi("c", T.FLOAT, [2]), vi("a", T.FLOAT, [2]),
                vi("b", T.FLOAT, [2])])
    one("where_float_condition_same_branches.onnx", "Where", ["c", "a", "a"],
        [], "boolean (i1)",
        "Where with a float condition and equal branches: folded away "
        "before the verifier sees the bad condition",
        inputs=[vi("c", T.FLOAT, [2]), vi("a", T.FLOAT, [2])])
    one("batchnorm_param_shape.onnx", "BatchNormalization",
        ["x", "s", "b", "m", "v"],
        [const(n_, np.ones(4, np.float32)) for n_ in "sbmv"],
        "expects scale of shape 3 (the channel count), got 4",
        "BatchNormalization parameters for 4 channels, input has 3")
    one("layernorm_axis_out_of_range.onnx", "LayerNormalization", ["x", "s"],
        [const("s", np.ones(3, np.float32))],
        "axis 5 is out of range for rank 2", "LayerNormalization axis 5",
        axis=5, opset=17)

    # Constant nodes.
    w.simple("constant_no_value.onnx", [node("Constant", [], ["y"], name="c")],
             [], y, (), 2, "expects exactly one value attribute",
             "Constant without a value")
    n = node("Constant", [], ["y"], name="c", value_float=1.0)
    n.attribute.append(helper.make_attribute("value_int", 2))
    w.simple("constant_two_values.onnx", [n], [], y, (), 2,
             "expects exactly one value attribute", "Constant with two values")
    sp = helper.make_sparse_tensor(
        numpy_helper.from_array(np.array([5.0], np.float32), "v"),
        numpy_helper.from_array(np.array([1], np.int64), "i"), [4])
    w.simple("constant_sparse_value.onnx",
             [node("Constant", [], ["y"], name="c", sparse_value=sp)], [], y,
             (), 3, "sparse",
             "a valid Constant with sparse_value: not supported (exit 3)")
    w.simple("constant_value_strings.onnx",
             [node("Constant", [], ["y"], name="c",
                   value_strings=[b"a", b"b"])], [], y, (), 3,
             "constant attribute 'value_strings' is not supported",
             "a valid Constant with value_strings: not supported (exit 3)")
    t = T(name="t", data_type=T.STRING, dims=[1], string_data=[b"x"])
    w.simple("constant_string_tensor.onnx",
             [node("Constant", [], ["y"], name="c", value=t)], [], y, (), 3,
             "tensor element type STRING (8) is not supported",
             "a valid Constant holding a STRING tensor (exit 3)")
    t = T(name="t", data_type=T.FLOAT, dims=[4], raw_data=b"\0" * 3)
    w.simple("constant_value_raw_data_short.onnx",
             [node("Constant", [], ["y"], name="c", value=t)], [], y, (), 2,
             "holds 3 bytes of data, its shape needs 16",
             "Constant value with 3 bytes for float[4]")
    n = node("Constant", [], ["y"], name="c")
    n.attribute.append(AttributeProto(name="value", type=AttributeProto.INT,
                                      i=3))
    w.simple("constant_value_wrong_type.onnx", [n], [], y, (), 2,
             "attribute 'value' must be a tensor",
             "Constant 'value' given as an INT")
