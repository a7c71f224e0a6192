#!/usr/bin/python3
"""signal_vs_numpy.py OUTDIR --kilnc KILNC: DFT and STFT (opset 17) with
what the ONNX node tests leave out (a complex input, dft_length padding and
cutting, one-sided output, a negative axis, the inverse of a complex
spectrum, a complex STFT with frame_length and a window), against
numpy.fft, and MelWeightMatrix against ONNX's reference formula (its sample
rate a graph input, which `kilnc run` binds); refusals: a one-sided inverse (exit 3), the real/imaginary axis
(exit 2). Fixed seed."""
import numpy as np
from onnx import helper

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
node = helper.make_node
cases = cases_from_command_line(rtol=1e-4, atol=2e-4)


def parts(z):
    return np.stack([z.real, z.imag], -1).astype(np.float32)


real = rng.standard_normal((2, 12, 3, 1)).astype(np.float32)
cplx = rng.standard_normal((2, 12, 3, 2)).astype(np.float32)
z = cplx[..., 0] + 1j * cplx[..., 1]
i64 = lambda v: np.array(v, np.int64)

cases.add("dft_complex_padded",
          [node("DFT", ["x", "n"], ["y"], axis=1)], {"x": cplx},
          {"y": parts(np.fft.fft(z, n=16, axis=1))}, [("n", i64(16))])
cases.add("dft_real_cut_onesided_negative_axis",
          [node("DFT", ["x", "n"], ["y"], axis=-3, onesided=1)], {"x": real},
          {"y": parts(np.fft.rfft(real[..., 0], n=9, axis=1))},
          [("n", i64(9))])
cases.add("dft_inverse_complex_axis2",
          [node("DFT", ["x"], ["y"], axis=2, inverse=1)], {"x": cplx},
          {"y": parts(np.fft.ifft(z, axis=2))})
signal = rng.standard_normal((2, 50, 2)).astype(np.float32)
window = np.hanning(10).astype(np.float32)
s = signal[..., 0] + 1j * signal[..., 1]
frames = np.stack([s[:, f * 4:f * 4 + 10] * window for f in range(11)], 1)
cases.add("stft_complex_two_sided",
          [node("STFT", ["x", "step", "w", "len"], ["y"], onesided=0)],
          {"x": signal}, {"y": parts(np.fft.fft(frames, axis=-1))},
          [("step", i64(4)), ("w", window), ("len", i64(10))])


def mel_reference(bins, dft_length, rate, lower, upper):
    """ONNX's reference for MelWeightMatrix (its backend test generator):
    band edges in float32, points in float64."""
    lower, upper = np.float32(lower), np.float32(upper)
    points = np.arange(0, bins + 2)
    low = 2595 * np.log10(1 + lower / 700)
    high = 2595 * np.log10(1 + upper / 700)
    points = points * ((high - low) / points.shape[0]) + low
    points = 700 * (np.power(10, points / 2595) - 1)
    points = ((dft_length + 1) * points // rate).astype(int)
    out = np.zeros((dft_length // 2 + 1, bins))
    for i in range(bins):
        left, centre, right = points[i], points[i + 1], points[i + 2]
        if centre == left:
            out[centre, i] = 1
        else:
            for j in range(left, centre + 1):
                out[j, i] = (j - left) / (centre - left)
        for j in range(centre, right):
            out[j, i] = (right - j) / (right - centre)
    return out.astype(np.float32)


cases.add("mel_weight_matrix",
          [node("MelWeightMatrix", ["bins", "n", "rate", "lo", "hi"], ["y"])],
          {"rate": np.array(16000, np.int64)},
          {"y": mel_reference(10, 64, 16000, 20.0, 7000.0)},
          [("bins", i64(10)), ("n", i64(64)),
           ("lo", np.array(20.0, np.float32)),
           ("hi", np.array(7000.0, np.float32))])
cases.add("dft_onesided_inverse",
          [node("DFT", ["x"], ["y"], inverse=1, onesided=1)], {"x": cplx},
          {"y": cplx}, expect_exit=3,
          expect_error="a one-sided inverse DFT is not supported")
cases.add("dft_axis_last",
          [node("DFT", ["x"], ["y"], axis=3)], {"x": cplx}, {"y": cplx},
          expect_exit=2, expect_error="axis 3 is the real/imaginary dimension")
cases.check()
