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


def gen_training(w):
    """The ai.onnx.preview.training optimizers: operand counts and modes."""
    from corpus_lib import make_model
    training = [("ai.onnx.preview.training", 1)]
    scalars = [vi("R", T.FLOAT, []), vi("T", T.INT64, [])]
    x = [vi(n, T.FLOAT, [2]) for n in ["X", "G", "V"]]
    outputs = [vi("X_new", T.FLOAT, None), vi("V_new", T.FLOAT, None)]
    n = node("Momentum", ["R", "T", "X", "G", "V"], ["X_new", "V_new"],
             name="momentum", domain="ai.onnx.preview.training", mode="heavy",
             alpha=0.9, beta=0.1)
    w.model("momentum_bad_mode.onnx",
            make_model([n], scalars + x, outputs, opset=None,
                       extra_opsets=training), 2,
            "'mode' must be standard or nesterov, got 'heavy'",
            "Momentum's mode is standard or nesterov")
    n = node("Adagrad", ["R", "T", "X", "G"], ["X_new"], name="adagrad",
             domain="ai.onnx.preview.training")
    w.model("adagrad_missing_state.onnx",
            make_model([n], scalars + x[:2], outputs[:1], opset=None,
                       extra_opsets=training), 2,
            "expects R, T and 3 groups of equally many tensors, got 4 inputs",
            "Adagrad without its accumulated squares H")
