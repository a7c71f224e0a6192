"""Unsigned integers, BitShift and the quantized operators: operand types,
attributes and per-axis parameter shapes.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np

from corpus_lib import T, vi, node, const


def gen_integers(w):
    u8 = [vi("x", T.UINT8, [2, 3])]
    yu8 = [vi("y", T.UINT8, None)]
    w.simple("bitshift_bad_direction.onnx",
             [node("BitShift", ["x", "x"], ["y"], name="shift", direction="UP")],
             u8, yu8, (), 2, "'direction' must be LEFT or RIGHT, got 'UP'",
             "direction is LEFT or RIGHT")
    w.simple("bitshift_signed.onnx",
             [node("BitShift", ["x", "x"], ["y"], name="shift", direction="LEFT")],
             [vi("x", T.INT32, [2])], [vi("y", T.INT32, None)], (), 2,
             "BitShift takes unsigned integers, got 'i32'",
             "BitShift is defined for unsigned types only")
    w.simple("reduce_mean_uint8.onnx",
             [node("ReduceMean", ["x"], ["y"], name="mean", axes=[1])],
             u8, yu8, (), 3, "'kiln.reduce_mean' on unsigned integers is not "
             "supported", "a mean of uint8 (valid ONNX Kiln does not compile)")

    x = [vi("x", T.FLOAT, [2, 3])]
    y8 = [vi("y", T.INT8, None)]
    w.simple("quantize_zero_point_int32.onnx",
             [node("QuantizeLinear", ["x", "s", "z"], ["y"], name="q")], x,
             [vi("y", T.INT32, None)],
             [const("s", np.float32(0.5)), const("z", np.int32(0))], 2,
             "y_zero_point must be int8 or uint8",
             "an int32 zero point (QuantizeLinear gives 8-bit integers)")
    w.simple("quantize_axis_scale_length.onnx",
             [node("QuantizeLinear", ["x", "s", "z"], ["y"], name="q", axis=1)],
             x, y8, [const("s", np.ones(2, np.float32)),
                     const("z", np.zeros(2, np.int8))], 2,
             "y_scale must be a scalar or have one value per entry of axis 1 (3)",
             "two scales for an axis of three")
    w.simple("quantize_axis_out_of_range.onnx",
             [node("QuantizeLinear", ["x", "s", "z"], ["y"], name="q", axis=5)],
             x, y8, [const("s", np.ones(3, np.float32)),
                     const("z", np.zeros(3, np.int8))], 2,
             "axis 5 is out of range for rank 2", "axis past the rank")
    w.simple("dequantize_float_input.onnx",
             [node("DequantizeLinear", ["x", "s"], ["y"], name="dq")], x,
             [vi("y", T.FLOAT, None)], [const("s", np.float32(0.5))], 2,
             "x must be int8, uint8 or int32", "dequantizing a float tensor")
    w.simple("matmul_integer_float.onnx",
             [node("MatMulInteger", ["x", "x"], ["y"], name="mmi")],
             [vi("x", T.FLOAT, [2, 2])], [vi("y", T.INT32, None)], (), 2,
             "A and B must be int8 or uint8", "MatMulInteger of floats")
    w.simple("matmul_integer_zero_point_type.onnx",
             [node("MatMulInteger", ["x", "x", "z"], ["y"], name="mmi")],
             [vi("x", T.UINT8, [2, 2])], [vi("y", T.INT32, None)],
             [const("z", np.int8(1))], 2,
             "a_zero_point must have the type of its input",
             "an int8 zero point for uint8 A")


def gen_topk_windows(w):
    """TopK's K and the window functions' size."""
    x = [vi("x", T.FLOAT, [2, 3])]
    y = [vi("y", T.FLOAT, None), vi("i", T.INT64, None)]
    for rel, k, code, message in [
            ("topk_k_too_large.onnx", 4, 2, "K must be one value in [0, 3]"),
            ("topk_k_negative.onnx", -1, 2, "K must be one value in [0, 3]"),
            ("topk_k_zero.onnx", 0, 3, "K = 0 (empty outputs) is not supported")]:
        w.simple(rel, [node("TopK", ["x", "k"], ["y", "i"], name="topk")], x, y,
                 [const("k", np.array([k], np.int64))], code, message,
                 "TopK with K = %d on an axis of 3" % k, opset=11)
    w.simple("hann_window_size_zero.onnx",
             [node("HannWindow", ["n"], ["y"], name="hann")], [],
             [vi("y", T.FLOAT, None)], [const("n", np.array(0, np.int64))], 2,
             "size must be one value in [1, 2^24]", "a window of no points",
             opset=17)
