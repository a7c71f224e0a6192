"""Operators of opsets before 7: legacy broadcasting and BatchNormalization's
is_test / spatial.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np

from corpus_lib import T, vi, node, const


def gen_legacy(w):
    y = [vi("y", T.FLOAT, None)]
    w.simple("legacy_add_axis_overflow.onnx",
             [node("Add", ["a", "b"], ["y"], name="add", broadcast=1, axis=1)],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3, 1])], y, (), 2,
             "B (rank 2) does not fit A (rank 2) from axis 1",
             "opset 6: B aligned at axis 1 runs past A's last dimension",
             opset=6)
    w.simple("legacy_mul_axis_out_of_range.onnx",
             [node("Mul", ["a", "b"], ["y"], name="mul", broadcast=1, axis=4)],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3])], y, (), 2,
             "axis 4 is out of range for rank 2", "opset 6: axis past A's rank",
             opset=6)
    stats = [const(n, np.ones(3, np.float32)) for n in ["s", "b", "m", "v"]]
    for rel, attrs, message in [
            ("legacy_batchnorm_training.onnx", {},
             "training-mode BatchNormalization (is_test 0) is not supported"),
            ("legacy_batchnorm_not_spatial.onnx", {"is_test": 1, "spatial": 0},
             "BatchNormalization with spatial 0 is not supported")]:
        w.simple(rel, [node("BatchNormalization", ["x", "s", "b", "m", "v"],
                            ["y"], name="bn", **attrs)],
                 [vi("x", T.FLOAT, [1, 3, 2, 2])], y, stats, 3, message,
                 "opset 6 BatchNormalization Kiln does not compile", opset=6)
