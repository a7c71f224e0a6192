"""Operator attributes and operands.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np

from corpus_lib import T, vi, node, make_model, const


def gen_operators(w):
    y = [vi("y", T.FLOAT, None)]
    w.simple("unsupported_operators.onnx",
             [node("RandomUniformLike", ["x"], ["a"], name="random"),
              node("StringNormalizer", ["x"], ["b"], name="text1"),
              node("StringNormalizer", ["x"], ["c"], name="text2"),
              node("Relu", ["x"], ["y"], name="relu")],
             [vi("x", T.FLOAT, [2])], y, (), 3,
             "the model uses 2 unsupported operator(s) in 3 node(s):\n"
             "  RandomUniformLike (domain ai.onnx, opset 13): 'random'\n"
             "  StringNormalizer (domain ai.onnx, opset 13): 'text1', "
             "'text2'",
             "two unsupported operators, listed with their nodes")
    n = node("FancyOp", ["x"], ["y"], name="fancy", domain="com.example")
    m = make_model([n], [vi("x", T.FLOAT, [2])], y,
                   extra_opsets=[("com.example", 1)])
    w.model("unsupported_custom_domain.onnx", m, 3,
            "FancyOp (domain com.example, opset 13): 'fancy'",
            "an operator from a custom domain")
    w.simple("op_type_empty.onnx", [node("", ["x"], ["y"], name="nameless")],
             [vi("x", T.FLOAT, [2])], y, (), 3,
             "(domain ai.onnx, opset 13): 'nameless'", "op_type is empty")
    w.simple("op_newer_than_opset.onnx",
             [node("LayerNormalization", ["x", "s"], ["y"], name="ln")],
             [vi("x", T.FLOAT, [2, 4])], y,
             [const("s", np.ones(4, np.float32))], 3,
             "LayerNormalization (domain ai.onnx, opset 13): 'ln'",
             "LayerNormalization (opset 17) in an opset-13 model")

    # Conv.
    X = [vi("x", T.FLOAT, [1, 4, 8, 8])]
    W = const("w", np.ones((8, 4, 3, 3), np.float32))

    def conv(rel, message, why, exit_code=2, inputs=X, weight=W, **attrs):
        w.simple(rel, [node("Conv", ["x", "w"], ["y"], name="conv", **attrs)],
                 inputs, y, [weight], exit_code, message, why)

    conv("conv_negative_pads.onnx",
         "expects every 'pads' value to be non-negative", "pads [-1,0,0,0]",
         pads=[-1, 0, 0, 0])
    conv("conv_zero_stride.onnx", "expects every 'strides' value to be "
         "positive", "strides [0, 1] (a divisor)", strides=[0, 1])
    conv("conv_negative_stride.onnx", "expects every 'strides' value to be "
         "positive", "strides [-1, 1]", strides=[-1, 1])
    conv("conv_zero_dilation.onnx", "expects every 'dilations' value to be "
         "positive", "dilations [1, 0]", dilations=[1, 0])
    conv("conv_huge_dilation.onnx", "does not fit spatial dimension 2",
         "dilations [2^62, 1]: the window span overflows int64",
         dilations=[1 << 62, 1])
    conv("conv_huge_pads.onnx", "does not fit spatial dimension",
         "pads [INT64_MAX, 0, INT64_MAX, 0]: the padded size overflows",
         pads=[(1 << 63) - 1, 0, (1 << 63) - 1, 0])
    conv("conv_same_upper_huge_stride.onnx", "strides must be positive",
         "auto_pad SAME_UPPER with stride INT64_MAX then 0",
         auto_pad="SAME_UPPER", strides=[(1 << 63) - 1, 0])
    conv("conv_group_not_dividing.onnx",
         "input channels (4) and output channels (8) must be divisible by "
         "groups (3)", "group 3 with 4 input channels", group=3)
    conv("conv_group_zero.onnx", "expects a positive group count, got 0",
         "group 0 (a divisor)", group=0)
    conv("conv_group_negative.onnx", "expects a positive group count, got -4",
         "group -4", group=-4)
    conv("conv_channel_mismatch.onnx",
         "weight expects 3 input channels, input has 4",
         "W has 3 input channels, X has 4",
         weight=const("w", np.ones((8, 3, 3, 3), np.float32)))
    conv("conv_kernel_larger_than_input.onnx",
         "window of size 9 (dilation 1) does not fit spatial dimension 2",
         "a 9x9 kernel on an 8x8 input",
         weight=const("w", np.ones((8, 4, 9, 9), np.float32)))
    conv("conv_kernel_shape_disagrees_with_weight.onnx", "kernel_shape",
         "kernel_shape [5,5] but W is 3x3: the attribute is silently ignored",
         kernel_shape=[5, 5])
    conv("conv_pads_wrong_count.onnx",
         "kernel_shape, strides, dilations and pads must match the 2 spatial "
         "dimension(s)", "3 pads for a 2-D conv", pads=[1, 1, 1])
    conv("conv_auto_pad_unknown.onnx", "unknown auto_pad 'WRONG'",
         "auto_pad 'WRONG'", auto_pad="WRONG")
    conv("conv_weight_rank_mismatch.onnx", "W must have the rank of X",
         "W rank 3, X rank 4",
         weight=const("w", np.ones((8, 4, 3), np.float32)))
    conv("conv_rank1_input.onnx",
         "only 1-D and 2-D windows are supported, the input has rank 1",
         "Conv on rank-1 X and W", inputs=[vi("x", T.FLOAT, [8])],
         weight=const("w", np.ones(3, np.float32)))
    conv("conv_scalar_input.onnx",
         "only 1-D and 2-D windows are supported, the input has rank 0",
         "Conv on scalar X and W", inputs=[vi("x", T.FLOAT, [])],
         weight=const("w", np.ones((), np.float32)))
    conv("conv_4d.onnx", "only 1-D, 2-D and 3-D windows are supported",
         "a valid 4-D Conv: not supported (exit 3)", exit_code=3,
         inputs=[vi("x", T.FLOAT, [1, 4, 4, 4, 4, 4])],
         weight=const("w", np.ones((8, 4, 3, 3, 3, 3), np.float32)))
    # 3-D windows (built from 2-D ops: ops/Volumetric.cpp).
    X3 = [vi("x", T.FLOAT, [1, 4, 5, 6, 6])]
    W3 = const("w", np.ones((8, 4, 3, 3, 3), np.float32))
    conv("conv3d_depth_kernel_too_deep.onnx",
         "the kernel spans 9 depths but the padded input has 7",
         "a 3-D kernel of 5 depths with dilation 2 over 5 depths padded by 1",
         inputs=X3, weight=const("w", np.ones((8, 4, 5, 3, 3), np.float32)),
         dilations=[2, 1, 1], pads=[1, 0, 0, 1, 0, 0])
    conv("conv3d_depth_stride_zero.onnx",
         "the depth's kernel, stride and dilation must be positive",
         "strides [0, 1, 1] on a 3-D conv", inputs=X3, weight=W3,
         strides=[0, 1, 1])
    conv("conv3d_depth_pad_huge.onnx", "the depth's pads must be in",
         "a depth pad of INT64_MAX on a 3-D conv", inputs=X3, weight=W3,
         pads=[(1 << 63) - 1, 0, 0, 0, 0, 0])
    conv("conv3d_group_not_dividing.onnx",
         "W must be [O, C / group, k...] with C = 4 and O = 8 divisible by "
         "group 3", "group 3 with 4 input channels on a 3-D conv",
         inputs=X3, weight=W3, group=3)
    conv("conv3d_plane_stride_negative.onnx",
         "expects every 'strides' value to be positive",
         "strides [1, -1, 1]: the 2-D conv's own check", inputs=X3,
         weight=W3, strides=[1, -1, 1])
    conv("conv_strides_wrong_type.onnx",
         "attribute 'strides' must be a list of integers",
         "strides given as FLOATS", strides=[1.0, 1.0])
    w.simple("conv_missing_weight_input.onnx",
             [node("Conv", ["x"], ["y"], name="conv")], X, y, (), 2,
             "node 'conv' (Conv): missing input #1 (W)",
             "Conv with only its X input")
    w.simple("conv_empty_weight_name.onnx",
             [node("Conv", ["x", ""], ["y"], name="conv")], X, y, (), 2,
             "node 'conv' (Conv): missing input #1 (W)",
             "Conv whose W input is the empty (omitted) name")

    # Pooling.
    P = [vi("x", T.FLOAT, [1, 2, 6, 6])]

    def pool(rel, message, why, op="MaxPool", inputs=P, outputs=y,
             exit_code=2, **attrs):
        w.simple(rel, [node(op, ["x"], [o.name for o in outputs],
                            name="pool", **attrs)],
                 inputs, outputs, (), exit_code, message, why)

    pool("maxpool_missing_kernel_shape.onnx",
         "missing attribute 'kernel_shape'", "MaxPool without kernel_shape")
    pool("maxpool_kernel_zero.onnx",
         "expects every 'kernel_shape' value to be positive",
         "kernel_shape [0, 2]", kernel_shape=[0, 2])
    pool("maxpool_kernel_int64_max.onnx", "does not fit spatial dimension 2",
         "kernel_shape [INT64_MAX, 2]", kernel_shape=[(1 << 63) - 1, 2])
    pool("maxpool_pads_cover_window.onnx",
         "padding of spatial dimension 2 must be smaller than the window",
         "pads as large as the window", kernel_shape=[2, 2],
         pads=[2, 0, 0, 0])
    pool("maxpool_same_upper_int64_max_stride.onnx",
         "window of size",
         "SAME_UPPER with stride INT64_MAX and kernel INT64_MAX",
         kernel_shape=[(1 << 63) - 1, 2], strides=[(1 << 63) - 1, 1],
         auto_pad="SAME_UPPER")
    pool("avgpool_negative_stride.onnx",
         "expects every 'strides' value to be positive", "strides [1, -2]",
         op="AveragePool", kernel_shape=[2, 2], strides=[1, -2])
    pool("maxpool_kernel_shape_wrong_type.onnx",
         "attribute 'kernel_shape' must be a list of integers",
         "kernel_shape given as a STRING", kernel_shape="2x2")
    P3 = [vi("x", T.FLOAT, [1, 2, 5, 6, 6])]
    pool("maxpool3d_depth_kernel_int64_max.onnx",
         "the depth's kernel, stride and dilation must be positive and at "
         "most 4096", "a 3-D kernel of INT64_MAX depths (not as many slices)",
         inputs=P3, kernel_shape=[(1 << 63) - 1, 2, 2])
    pool("avgpool3d_depth_dilation_zero.onnx",
         "the depth's kernel, stride and dilation must be positive",
         "dilations [0, 1, 1] on a 3-D AveragePool", op="AveragePool",
         inputs=P3, kernel_shape=[2, 2, 2], dilations=[0, 1, 1])
    pool("maxpool3d_depth_window_too_deep.onnx", "does not fit",
         "a window of 7 depths over 5", inputs=P3, kernel_shape=[7, 2, 2])
    pool("avgpool3d_integer_input.onnx", "X must be a floating-point tensor",
         "a 3-D AveragePool of int32", op="AveragePool",
         inputs=[vi("x", T.INT32, [1, 2, 5, 6, 6])], kernel_shape=[2, 2, 2])
    pool("maxpool3d_indices.onnx",
         "the Indices output of MaxPool is supported for 1-D and 2-D windows "
         "only", "a 3-D MaxPool asked for its Indices (exit 3)", inputs=P3,
         outputs=[vi("y", T.FLOAT, None), vi("i", T.INT64, None)],
         exit_code=3, kernel_shape=[2, 2, 2])
    w.simple("convtranspose3d_output_padding_too_large.onnx",
             [node("ConvTranspose", ["x", "w"], ["y"], name="deconv",
                   strides=[2, 1, 1], output_padding=[2, 0, 0])],
             P3, y, [const("w", np.ones((2, 3, 2, 2, 2), np.float32))], 2,
             "output_padding must be in [0, max(stride, dilation))",
             "output_padding 2 with stride 2 on a 3-D ConvTranspose")
    w.simple("convtranspose4d.onnx",
             [node("ConvTranspose", ["x", "w"], ["y"], name="deconv")],
             [vi("x", T.FLOAT, [1, 2, 3, 3, 3, 3])], y,
             [const("w", np.ones((2, 3, 2, 2, 2, 2), np.float32))], 3,
             "only 1-D, 2-D and 3-D ConvTranspose is supported",
             "a valid 4-D ConvTranspose: not supported (exit 3)")
    w.simple("global_pool_rank2.onnx",
             [node("GlobalAveragePool", ["x"], ["y"], name="gap")],
             [vi("x", T.FLOAT, [2, 3])], y, (), 2,
             "expects input of rank >= 3", "GlobalAveragePool on rank 2")

    # Elementwise and contractions.
    w.simple("add_shape_mismatch.onnx",
             [node("Add", ["a", "b"], ["y"], name="add")],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [4, 3])], y, (), 2,
             "operand shapes 2x3 and 4x3 are not broadcast-compatible",
             "Add of 2x3 and 4x3")
    w.simple("add_dtype_mismatch.onnx",
             [node("Add", ["a", "b"], ["y"], name="add")],
             [vi("a", T.FLOAT, [2]), vi("b", T.INT64, [2])], y, (), 2,
             "to have one element type", "Add of float and int64")
    w.simple("add_missing_input.onnx",
             [node("Add", ["a"], ["y"], name="add")],
             [vi("a", T.FLOAT, [2])], y, (), 2,
             "node 'add' (Add): missing input #1 (B)", "Add with one input")
    w.simple("where_shape_mismatch.onnx",
             [node("Where", ["c", "a", "b"], ["y"], name="where")],
             [vi("c", T.BOOL, [3]), vi("a", T.FLOAT, [2]),
              vi("b", T.FLOAT, [2])], y, (), 2,
             "are not broadcast-compatible", "Where with a 3-element mask")
    w.simple("matmul_shape_mismatch.onnx",
             [node("MatMul", ["a", "b"], ["y"], name="mm")],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [4, 5])], y, (), 2,
             "node 'mm': contracting dimensions differ: lhs has 3, rhs has 4",
             "MatMul 2x3 by 4x5")
    w.simple("matmul_scalar.onnx",
             [node("MatMul", ["a", "b"], ["y"], name="mm")],
             [vi("a", T.FLOAT, []), vi("b", T.FLOAT, [2, 2])], y, (), 2,
             "MatMul operands must have rank >= 1", "MatMul of a scalar")
    w.simple("matmul_batch_mismatch.onnx",
             [node("MatMul", ["a", "b"], ["y"], name="mm")],
             [vi("a", T.FLOAT, [3, 2, 4]), vi("b", T.FLOAT, [5, 4, 2])], y,
             (), 2, "batch dimensions 3 and 5 are not broadcast-compatible",
             "MatMul batch 3 vs 5")
    w.simple("gemm_shape_mismatch.onnx",
             [node("Gemm", ["a", "b"], ["y"], name="gemm", transB=1)],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [4, 5])], y, (), 2,
             "contracting dimensions differ: op(A) has 3, op(B) has 5",
             "Gemm 2x3 by (4x5)^T")
    w.simple("gemm_rank3.onnx",
             [node("Gemm", ["a", "b"], ["y"], name="gemm")],
             [vi("a", T.FLOAT, [2, 3, 1]), vi("b", T.FLOAT, [3, 5])], y, (),
             2, "expects A of rank 2, got rank 3", "Gemm on a rank-3 A")
    w.simple("gemm_bias_not_broadcastable.onnx",
             [node("Gemm", ["a", "b", "c"], ["y"], name="gemm")],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3, 5]),
              vi("c", T.FLOAT, [4])], y, (), 2,
             "C of shape 4 does not broadcast to the result shape 2x5",
             "Gemm with a C of 4 for a 2x5 result")
    w.simple("gemm_alpha_wrong_type.onnx",
             [node("Gemm", ["a", "b"], ["y"], name="gemm", alpha=2)],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3, 5])], y, (), 2,
             "attribute 'alpha' must be a float", "alpha given as an INT")
    w.simple("leakyrelu_alpha_string.onnx",
             [node("LeakyRelu", ["x"], ["y"], name="lrelu", alpha="0.1")],
             [vi("x", T.FLOAT, [2])], y, (), 2,
             "attribute 'alpha' must be a float", "alpha given as a STRING")
    w.simple("cast_to_string.onnx",
             [node("Cast", ["x"], ["y"], name="cast", to=T.STRING)],
             [vi("x", T.FLOAT, [2])], y, (), 3,
             "tensor element type STRING (8) is not supported",
             "a valid Cast to STRING: unsupported type (exit 3)")
    w.simple("cast_to_out_of_range.onnx",
             [node("Cast", ["x"], ["y"], name="cast", to=(1 << 32) + 1)],
             [vi("x", T.INT64, [2])], y, (), 2, "4294967297",
             "Cast.to = 2^32+1: no such type (must not wrap to FLOAT)")
    # Composite ops (DepthToSpace, SpaceToDepth, InstanceNormalization).
    D = [vi("x", T.FLOAT, [1, 8, 4, 4])]
    w.simple("depthtospace_blocksize_zero.onnx",
             [node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=0)], D,
             y, (), 2, "positive blocksize", "blocksize 0 (a divisor)")
    w.simple("depthtospace_blocksize_2pow32.onnx",
             [node("DepthToSpace", ["x"], ["y"], name="d2s",
                   blocksize=1 << 32)], D, y, (), 2, "blocksize",
             "blocksize 2^32: blocksize^2 wraps to 0, then C % 0")
    w.simple("spacetodepth_blocksize_huge.onnx",
             [node("SpaceToDepth", ["x"], ["y"], name="s2d",
                   blocksize=1 << 62)], D, y, (), 2, "blocksize",
             "blocksize 2^62 for a 4x4 input")
    w.simple("depthtospace_unknown_mode.onnx",
             [node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2,
                   mode="XYZ")], D, y, (), 2, "mode 'XYZ'",
             "mode 'XYZ' (only DCR and CRD exist)")
    w.simple("instancenorm_scale_wrong_size.onnx",
             [node("InstanceNormalization", ["x", "s", "b"], ["y"],
                   name="inorm")], D, y,
             [const("s", np.arange(3, dtype=np.float32)),
              const("b", np.arange(3, dtype=np.float32))], 2, "scale",
             "scale and B hold 3 values for 8 channels")
    w.simple("clip_min_not_scalar.onnx",
             [node("Clip", ["x", "lo"], ["y"], name="clip")],
             [vi("x", T.FLOAT, [2])], y,
             [const("lo", np.zeros(2, np.float32))], 2,
             "min must be a scalar", "Clip min with 2 elements")

    # Found by fuzz/OnnxImportFuzzer: the one-hot expansions materialise
    # 0..n-1 over a dimension of the model, which may claim any size (an
    # input's type costs nothing until then).
    w.simple("gatherelements_axis_huge.onnx",
             [node("GatherElements", ["x", "i"], ["y"], name="gather",
                   axis=1)],
             [vi("x", T.FLOAT, [2, 1 << 32]), vi("i", T.INT64, [2, 2])], y,
             (), 2, "the gather is implausibly large",
             "data [2, 2^32]: a one-hot of 2^32 positions per index")
    w.simple("hardmax_axis_huge.onnx",
             [node("Hardmax", ["x"], ["y"], name="hardmax", axis=1)],
             [vi("x", T.FLOAT, [1, 1 << 25])], y, (), 2,
             "the node expands to a constant of 33554432 indices (at most "
             "16777216): implausibly large",
             "Hardmax along 2^25 positions: a 2^25-element index ramp")
    # Found by fuzz/OnnxImportFuzzer: IsInf on integers compared them with
    # an integer constant made from inf (a float-to-int conversion out of
    # range: undefined behaviour).
    w.simple("isinf_integer_input.onnx",
             [node("IsInf", ["x"], ["y"], name="isinf")],
             [vi("x", T.INT64, [2, 3])], [vi("y", T.BOOL, None)], (), 2,
             "node 'isinf' (IsInf): X must be a floating-point tensor",
             "IsInf is defined for floating-point tensors only")
    # Found by fuzz/OnnxImportFuzzer: MaxPool's Indices output materialised
    # one offset per (n, c) plane, 3 * 2^32 of them here.
    w.simple("maxpool_indices_huge_batch.onnx",
             [node("MaxPool", ["x"], ["y", "i"], name="pool",
                   kernel_shape=[2])],
             [vi("x", T.FLOAT, [1 << 32, 3, 32])], y, (), 2,
             "node 'pool' (MaxPool): MaxPool indices over 4294967296x3 "
             "planes of 1x31 positions are implausibly large",
             "a batch of 2^32: 3 * 2^32 plane offsets for the indices")
