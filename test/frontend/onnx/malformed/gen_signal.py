"""DFT, STFT, MelWeightMatrix and TfIdfVectorizer.

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


def gen_mel_and_text(w):
    y = [vi("y", T.FLOAT, None)]

    def mel(rel, values, message, why):
        names = ["bins", "n", "rate", "lo", "hi"]
        w.simple(rel, [node("MelWeightMatrix", names, ["y"], name="mel")],
                 [], y, [const(n, v) for n, v in zip(names, values)], 2,
                 message, why, opset=17)

    mel("mel_zero_bins.onnx",
        [np.int64(0), np.int64(16), np.int64(8000), np.float32(0),
         np.float32(4000)],
        "num_mel_bins and dft_length must be in [1, 4096]", "no mel bins")
    mel("mel_band_above_nyquist.onnx",
        [np.int64(8), np.int64(16), np.int64(8000), np.float32(0),
         np.float32(6000)],
        "the band must satisfy", "upper_edge_hertz above sample_rate / 2")
    mel("mel_two_bins_values.onnx",
        [np.int64([8, 9]), np.int64(16), np.int64(8000), np.float32(0),
         np.float32(4000)],
        "num_mel_bins must be one value", "num_mel_bins of two values")

    x = [vi("x", T.INT64, [2, 6])]

    def tfidf(rel, message, why, exit_code=2, **attrs):
        base = dict(mode="TF", min_gram_length=1, max_gram_length=1,
                    max_skip_count=0, ngram_counts=[0], ngram_indexes=[0, 1],
                    pool_int64s=[3, 4])
        base.update(attrs)
        w.simple(rel, [node("TfIdfVectorizer", ["x"], ["y"], name="tfidf",
                            **base)], x, y, (), exit_code, message, why)

    tfidf("tfidf_bad_mode.onnx", "mode must be TF, IDF or TFIDF",
          "mode 'BM25'", mode="BM25")
    tfidf("tfidf_gram_lengths.onnx",
          "min_gram_length and max_gram_length must satisfy",
          "min_gram_length 2 > max_gram_length 1", min_gram_length=2)
    tfidf("tfidf_counts_short.onnx",
          "ngram_counts must give the start of every gram length up to 2",
          "max_gram_length 2 with one ngram_counts entry", max_gram_length=2)
    tfidf("tfidf_counts_past_pool.onnx",
          "ngram_counts must be non-decreasing offsets into the pool",
          "an offset past the pool's end", max_gram_length=2,
          ngram_counts=[0, 9])
    tfidf("tfidf_bigrams_odd.onnx", "not a multiple of 2",
          "3 tokens of bigrams", max_gram_length=2, ngram_counts=[0, 0],
          pool_int64s=[1, 2, 3], ngram_indexes=[0])
    tfidf("tfidf_indexes_count.onnx",
          "ngram_indexes has 1 entries for 2 grams", "one slot for two grams",
          ngram_indexes=[0])
    tfidf("tfidf_negative_slot.onnx", "ngram_indexes must be in [0, 65536)",
          "a slot of -1", ngram_indexes=[0, -1])
    tfidf("tfidf_weights_count.onnx", "weights has 1 entries for 2 grams",
          "one weight for two grams", weights=[1.0])
    tfidf("tfidf_skip_huge.onnx", "max_skip_count must be in [0, 65536]",
          "max_skip_count 2^40 (not 2^40 slices)", max_skip_count=1 << 40)
