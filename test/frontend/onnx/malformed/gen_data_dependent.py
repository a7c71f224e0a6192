"""NonZero, Compress, Unique and NonMaxSuppression (outputs whose length the
data decides).

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np

from corpus_lib import T, vi, node, const


def gen_data_dependent(w):
    y = [vi("y", T.INT64, None)]
    data = vi("x", T.FLOAT, [3, 6])

    def compress(rel, message, why, condition, exit_code=2, **attrs):
        w.simple(rel, [node("Compress", ["x", "c"], ["y"], name="compress",
                            **attrs)], [data, condition],
                 [vi("y", T.FLOAT, None)], (), exit_code, message, why)

    compress("compress_float_condition.onnx",
             "condition must be a 1-D bool tensor", "a float condition",
             vi("c", T.FLOAT, [6]), axis=1)
    compress("compress_2d_condition.onnx",
             "condition must be a 1-D bool tensor", "a [2, 3] condition",
             vi("c", T.BOOL, [2, 3]), axis=1)
    compress("compress_long_condition.onnx",
             "condition has 7 entries, more than the 6 slices",
             "a condition longer than the axis", vi("c", T.BOOL, [7]), axis=1)
    compress("compress_bad_axis.onnx", "axis 2 is out of range for rank 2",
             "axis 2 of a rank-2 input", vi("c", T.BOOL, [3]), axis=2)
    compress("compress_empty_condition.onnx",
             "an empty condition is not supported", "a condition of length 0",
             vi("c", T.BOOL, [0]), exit_code=3, axis=0)

    w.simple("nonzero_scalar.onnx", [node("NonZero", ["x"], ["y"], name="nz")],
             [vi("x", T.FLOAT, [])], y, (), 3,
             "NonZero of a scalar or an empty tensor is not supported",
             "NonZero of a scalar")
    w.simple("unique_bad_axis.onnx",
             [node("Unique", ["x"], ["y"], name="unique", axis=-3)], [data],
             [vi("y", T.FLOAT, None)], (), 2,
             "axis -3 is out of range for rank 2", "axis -3", opset=13)

    boxes = vi("b", T.FLOAT, [1, 5, 4])
    scores = vi("s", T.FLOAT, [1, 2, 5])
    limit = const("m", np.array([3], np.int64))

    def nms(rel, message, why, inputs=(boxes, scores), inits=(limit,),
            exit_code=2, **attrs):
        w.simple(rel, [node("NonMaxSuppression", ["b", "s", "m"], ["y"],
                            name="nms", **attrs)], list(inputs), y,
                 list(inits), exit_code, message, why)

    nms("nms_box_width.onnx", "boxes must be [batches, boxes, 4] and scores "
        "[batches, classes, boxes]", "boxes [1, 5, 3]",
        inputs=(vi("b", T.FLOAT, [1, 5, 3]), scores))
    nms("nms_score_count.onnx", "boxes must be [batches, boxes, 4] and "
        "scores", "scores for 6 boxes, 5 boxes",
        inputs=(boxes, vi("s", T.FLOAT, [1, 2, 6])))
    nms("nms_center_point_box.onnx", "center_point_box must be 0 or 1, not 2",
        "center_point_box 2", center_point_box=2)
    nms("nms_two_limits.onnx", "max_output_boxes_per_class must hold one "
        "value", "two limits", inits=(const("m", np.array([3, 4], np.int64)),))
    nms("nms_zero_limit.onnx", "and a limit of 0", "a limit of 0 (exit 3)",
        inits=(const("m", np.array([0], np.int64)),), exit_code=3)
    nms("nms_runtime_limit.onnx", "must be a constant",
        "the limit as a graph input (exit 3; kilnc run binds it)",
        inputs=(boxes, scores, vi("m", T.INT64, [1])), inits=(), exit_code=3)
