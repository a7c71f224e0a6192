"""Det.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
from corpus_lib import T, vi, node


def gen_linalg(w):
    y = [vi("y", T.FLOAT, None)]

    def det(rel, x, message, why, exit_code=2):
        w.simple(rel, [node("Det", ["x"], ["y"], name="det")], [x], y, (),
                 exit_code, message, why)

    det("det_not_square.onnx", vi("x", T.FLOAT, [2, 3, 4]),
        "X must be [..., M, M]", "3x4 matrices")
    det("det_rank1.onnx", vi("x", T.FLOAT, [4]), "X must be [..., M, M]",
        "a vector")
    det("det_integer.onnx", vi("x", T.INT64, [3, 3]),
        "X must be a floating-point tensor", "an int64 matrix")
    det("det_huge_order.onnx", vi("x", T.FLOAT, [1 << 20, 1 << 20]),
        "Det of 1048576x1048576 matrices", "2^20 columns (exit 3, not 2^20 "
        "unrolled steps)", exit_code=3)
