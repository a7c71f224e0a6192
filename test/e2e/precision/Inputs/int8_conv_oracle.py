#!/usr/bin/env python3
"""NumPy oracle for int8 convolutions under --precision int8.

  inputs DIR   writes DIR/model.mlir (three convolutions: 3x3 stride 2
               padded with a bias; 1x1 on its result; 2x2 dilated with
               uneven padding), DIR/calibration/000/x.npy and DIR/x.npy
  check DIR    simulates Kiln's int8 PTQ (minmax ranges from the
               calibration sample run in float, per-tensor asymmetric
               activations, per-channel symmetric weights, round half to
               even) and compares DIR/out/*.npy with it
"""

import os
import sys

import numpy as np

RNG = np.random.default_rng(5)
W1 = RNG.uniform(-1, 1, (3, 2, 3, 3))
B1 = RNG.uniform(-0.5, 0.5, 3)
W2 = RNG.uniform(-1, 1, (4, 3, 1, 1))
W3 = RNG.uniform(-1, 1, (2, 2, 2, 2))
CONVS = {  # name: (weights, bias, strides, pads [t, l, b, r], dilations)
    "y1": (W1, B1, (2, 2), (1, 1, 1, 1), (1, 1)),
    "y2": (W2, None, (1, 1), (0, 0, 0, 0), (1, 1)),
    "y3": (W3, None, (1, 1), (2, 1, 0, 2), (2, 2)),
}


def conv(x, w, b, strides, pads, dilations, pad_value=0.0):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])),
               constant_values=pad_value)
    oh = (x.shape[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (x.shape[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            top, left = i * strides[0], j * strides[1]
            patch = x[:, :, top:top + dilations[0] * (kh - 1) + 1:dilations[0],
                      left:left + dilations[1] * (kw - 1) + 1:dilations[1]]
            y[:, :, i, j] = np.einsum("nckl,ockl->no", patch, w)
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def params(values):
    lo, hi = min(values.min(), 0.0), max(values.max(), 0.0)
    scale = (hi - lo) / 255.0
    zero = int(np.clip(np.round(-128.0 - lo / scale), -128, 127))
    return scale, zero


def int8_conv(x, calibration, spec):
    w, b, strides, pads, dilations = spec
    scale, zero = params(calibration)
    q = np.clip(np.round(x / scale) + zero, -128, 127)  # half to even
    w_scale = np.abs(w).reshape(w.shape[0], -1).max(axis=1) / 127.0
    wq = np.clip(np.round(w / w_scale.reshape(-1, 1, 1, 1)), -127, 127)
    acc = conv(q - zero, wq, None, strides, pads, dilations)  # exact ints
    y = acc * (scale * w_scale).reshape(1, -1, 1, 1)
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def forward(x, calibration):
    """Kiln's int8 model on x; calibration ranges from the float model."""
    c1 = conv(calibration, *CONVS["y1"])
    y1 = int8_conv(x, calibration, CONVS["y1"])
    y2 = int8_conv(y1, c1, CONVS["y2"])
    y3 = int8_conv(x, calibration, CONVS["y3"])
    return {"y1": y1, "y2": y2, "y3": y3}


def dense(array):
    return "dense<%s> : tensor<%sxf32>" % (
        np.array2string(array.astype(np.float32), separator=", ",
                        threshold=10 ** 6, floatmode="unique").replace("\n", ""),
        "x".join(str(d) for d in array.shape))


def write_model(path):
    lines = [
        "func.func @main(%x: tensor<1x2x6x6xf32> {kiln.name = \"x\"}) -> "
        "(tensor<1x3x3x3xf32> {kiln.name = \"y1\"}, tensor<1x4x3x3xf32> "
        "{kiln.name = \"y2\"}, tensor<1x2x6x7xf32> {kiln.name = \"y3\"}) {",
        "  %w1 = kiln.constant " + dense(W1),
        "  %b1 = kiln.constant " + dense(B1),
        "  %w2 = kiln.constant " + dense(W2),
        "  %w3 = kiln.constant " + dense(W3),
        "  %y1 = kiln.conv2d %x, %w1, %b1 {strides = array<i64: 2, 2>, "
        "pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, "
        "tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>",
        "  %y2 = kiln.conv2d %y1, %w2 : (tensor<1x3x3x3xf32>, "
        "tensor<4x3x1x1xf32>) -> tensor<1x4x3x3xf32>",
        "  %y3 = kiln.conv2d %x, %w3 {pads = array<i64: 2, 1, 0, 2>, "
        "dilations = array<i64: 2, 2>} : (tensor<1x2x6x6xf32>, "
        "tensor<2x2x2x2xf32>) -> tensor<1x2x6x7xf32>",
        "  return %y1, %y2, %y3 : tensor<1x3x3x3xf32>, tensor<1x4x3x3xf32>, "
        "tensor<1x2x6x7xf32>",
        "}",
    ]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    folder = sys.argv[2]
    calibration = np.linspace(-1, 3, 72).reshape(1, 2, 6, 6)
    if sys.argv[1] == "inputs":
        write_model(folder + "/model.mlir")
        os.makedirs(folder + "/calibration/000", exist_ok=True)
        np.save(folder + "/calibration/000/x.npy", calibration.astype(np.float32))
        x = np.random.default_rng(9).uniform(-2, 4, (1, 2, 6, 6))
        np.save(folder + "/x.npy", x.astype(np.float32))
        return
    x = np.load(folder + "/x.npy").astype(np.float64)
    expected = forward(x, calibration.astype(np.float32).astype(np.float64))
    worst = 0.0
    for name, want in expected.items():
        got = np.load(folder + "/out/%s.npy" % name)
        assert got.shape == want.shape, (name, got.shape, want.shape)
        error = np.abs(got - want).max() / max(np.abs(want).max(), 1e-9)
        worst = max(worst, error)
        unquantized = np.abs(got - conv(x, *CONVS[name])).max() if name != "y2" else 1.0
        if error > 1e-5 or unquantized < 1e-3:
            print("FAILED: %s is %.3g (relative) from the int8 simulation, "
                  "%.3g from float" % (name, error, unquantized))
            sys.exit(1)
    print("int8 convolutions match the simulation (max relative error %.2g)" % worst)


if __name__ == "__main__":
    main()
