"""DFT and STFT.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np

from corpus_lib import T, vi, node, const


def gen_signal(w):
    x = [vi("x", T.FLOAT, [1, 8, 1])]
    y = [vi("y", T.FLOAT, None)]

    def case(rel, nodes, message, why, inits=(), exit_code=2, inputs=x):
        w.simple(rel, nodes, inputs, y, list(inits), exit_code, message, why,
                 opset=17)

    case("dft_length_zero.onnx", [node("DFT", ["x", "n"], ["y"], name="dft")],
         "dft_length must be one positive integer", "dft_length 0",
         [const("n", np.int64(0))])
    case("dft_length_huge.onnx", [node("DFT", ["x", "n"], ["y"], name="dft")],
         "is longer than Kiln's matrix DFT allows (4096)",
         "dft_length 2^40 (exit 3, not a 2^80-entry matrix)",
         [const("n", np.int64(1 << 40))], exit_code=3)
    case("dft_last_dim_three.onnx", [node("DFT", ["x"], ["y"], name="dft")],
         "the last dimension must be 1 (real) or 2 (complex)",
         "a last dimension of 3", inputs=[vi("x", T.FLOAT, [1, 8, 3])])
    case("dft_integer_input.onnx", [node("DFT", ["x"], ["y"], name="dft")],
         "the input must be a floating-point tensor", "an int32 signal",
         inputs=[vi("x", T.INT32, [1, 8, 1])])
    case("dft_axis_out_of_range.onnx",
         [node("DFT", ["x"], ["y"], name="dft", axis=5)],
         "axis 5 is out of range for rank 3", "axis 5")
    step = const("step", np.int64(2))
    case("stft_no_window_or_length.onnx",
         [node("STFT", ["x", "step"], ["y"], name="stft")],
         "STFT needs a window or a frame_length", "neither given", [step])
    case("stft_window_length_mismatch.onnx",
         [node("STFT", ["x", "step", "win", "len"], ["y"], name="stft")],
         "window must be [frame_length]", "a window of 4 for frames of 3",
         [step, const("win", np.ones(4, np.float32)),
          const("len", np.int64(3))])
    case("stft_frame_longer_than_signal.onnx",
         [node("STFT", ["x", "step", "", "len"], ["y"], name="stft")],
         "frames of 9 samples do not fit a signal of 8", "frame_length 9",
         [step, const("len", np.int64(9))])
    case("stft_step_zero.onnx",
         [node("STFT", ["x", "zero", "", "len"], ["y"], name="stft")],
         "frame_step must be one positive integer", "frame_step 0",
         [const("zero", np.int64(0)), const("len", np.int64(4))])
    case("stft_signal_rank2.onnx",
         [node("STFT", ["x", "step", "", "len"], ["y"], name="stft")],
         "signal must be [batch, length, 1 or 2]", "a rank-2 signal",
         [step, const("len", np.int64(4))], inputs=[vi("x", T.FLOAT, [1, 8])])
