#!/usr/bin/env python3
"""Accuracy of Kiln's reduced precisions on real data: Fashion-MNIST.

  prepare OUT      trains a small CNN (conv3x3x32-pool-conv3x3x64-pool-
                   fc128-fc10) for one epoch on Debian's dataset-fashion-mnist
                   with PyTorch (fixed seed), exports it to OUT/cnn.onnx
                   (batch BATCH), and writes the 10,000 test images as
                   OUT/test/NNN.npy, their labels and PyTorch's logits.
  evaluate OUT P   compiles the model with `kilnc compile --precision P`
                   (int8: calibrated on OUT/calibration, 1,000 training images),
                   runs every test batch through the artifact and scores
                   top-1 (--max-accuracy-drop PTS: within that budget on
                   OUT/validation, 1,000 more training images); with a baseline (fp32, evaluated first) it also
                   reports the drop in points, the agreement of predictions
                   and the logits' SQNR, and fails outside the given limits.
"""

import argparse
import gzip
import os
import subprocess
import sys

import numpy as np

DATA = "/usr/share/datasets/fashion-mnist"
BATCH = 500


def read_idx(name):
    with gzip.open(os.path.join(DATA, name), "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def images(name):
    # Scaled to [0, 1] and centred as the training saw them.
    x = read_idx(name).astype(np.float32) / 255.0
    return ((x - 0.2860) / 0.3530)[:, None, :, :]


def prepare(out):
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    torch.set_num_threads(2)
    model = nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
    train_x = torch.from_numpy(images("train-images-idx3-ubyte.gz"))
    train_y = torch.from_numpy(read_idx("train-labels-idx1-ubyte.gz").astype(np.int64))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    order = torch.randperm(len(train_x))
    model.train()
    for start in range(0, len(order), 64):
        index = order[start:start + 64]
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(train_x[index]), train_y[index])
        loss.backward()
        optimizer.step()
    model.eval()

    os.makedirs(os.path.join(out, "test"), exist_ok=True)
    # int8 calibration: two samples of BATCH training images no test saw.
    for i in range(2):
        sample = os.path.join(out, "calibration", "%03d" % i)
        os.makedirs(sample, exist_ok=True)
        index = order[i * BATCH:(i + 1) * BATCH].numpy()
        np.save(os.path.join(sample, "image.npy"),
                np.ascontiguousarray(train_x.numpy()[index]))
    # The accuracy budget's validation set: two more batches of training
    # images (neither calibration nor the test saw them) and their labels.
    for i in range(2):
        sample = os.path.join(out, "validation", "%03d" % i)
        os.makedirs(sample, exist_ok=True)
        index = order[(2 + i) * BATCH:(3 + i) * BATCH].numpy()
        np.save(os.path.join(sample, "image.npy"),
                np.ascontiguousarray(train_x.numpy()[index]))
    np.save(os.path.join(out, "validation-labels.npy"),
            train_y.numpy()[order[2 * BATCH:4 * BATCH].numpy()])
    test_x = images("t10k-images-idx3-ubyte.gz")
    labels = read_idx("t10k-labels-idx1-ubyte.gz").astype(np.int64)
    np.save(os.path.join(out, "labels.npy"), labels)
    logits = []
    with torch.no_grad():
        for i, start in enumerate(range(0, len(test_x), BATCH)):
            batch = np.ascontiguousarray(test_x[start:start + BATCH])
            np.save(os.path.join(out, "test", "%03d.npy" % i), batch)
            logits.append(model(torch.from_numpy(batch)).numpy())
    logits = np.concatenate(logits)
    np.save(os.path.join(out, "logits.torch.npy"), logits)
    torch.onnx.export(model, torch.from_numpy(test_x[:BATCH]),
                      os.path.join(out, "cnn.onnx"), opset_version=13,
                      input_names=["image"], output_names=["logits"])
    top1 = 100.0 * np.mean(logits.argmax(1) == labels)
    print("trained: PyTorch top-1 %.2f%%" % top1)


def sqnr_db(reference, other):
    noise = np.sum((reference - other) ** 2)
    return float("inf") if noise == 0 else 10 * np.log10(np.sum(reference ** 2) / noise)


def evaluate(args):
    out, precision = args.out, args.precision
    artifact = os.path.join(out, "cnn.%s.kiln" % precision)
    subprocess.run([args.kilnc, "compile", os.path.join(out, "cnn.onnx"), "-o",
                    artifact, "--precision", precision] +
                   (["--keep-fp32", args.keep_fp32] if args.keep_fp32 else []) +
                   (["--calibration-data", os.path.join(out, "calibration"),
                     "--calibration-method", args.calibration_method]
                    if precision == "int8" else []) +
                   (["--max-accuracy-drop", args.max_accuracy_drop,
                     "--validation-data", os.path.join(out, "validation"),
                     "--validation-labels", os.path.join(out, "validation-labels.npy"),
                     "--stats-json", artifact + ".json"]
                    if args.max_accuracy_drop else []),
                   check=True, stdout=subprocess.DEVNULL)
    batches = sorted(os.listdir(os.path.join(out, "test")))
    logits = []
    for name in batches:
        result = os.path.join(out, "run." + precision)
        subprocess.run([args.kilnc, "run", artifact, "--input",
                        "image=" + os.path.join(out, "test", name),
                        "--output-dir", result], check=True,
                       stdout=subprocess.DEVNULL)
        logits.append(np.load(os.path.join(result, "logits.npy")))
    logits = np.concatenate(logits)
    np.save(os.path.join(out, "logits.%s.npy" % precision), logits)
    labels = np.load(os.path.join(out, "labels.npy"))
    top1 = 100.0 * np.mean(logits.argmax(1) == labels)
    line = "%s: top-1 %.2f%%" % (precision, top1)
    failures = []
    if args.baseline:
        base = np.load(os.path.join(out, "logits.%s.npy" % args.baseline))
        base_top1 = 100.0 * np.mean(base.argmax(1) == labels)
        drop = base_top1 - top1
        agreement = 100.0 * np.mean(base.argmax(1) == logits.argmax(1))
        sqnr = sqnr_db(base, logits)
        line += " (%s %.2f%%, drop %.2f points), agreement %.2f%%, SQNR %.1f dB" % (
            args.baseline, base_top1, drop, agreement, sqnr)
        if drop > args.max_drop:
            failures.append("drop %.2f > %.2f points" % (drop, args.max_drop))
        if agreement < args.min_agreement:
            failures.append("agreement %.2f%% < %.2f%%" % (agreement, args.min_agreement))
        if sqnr < args.min_sqnr:
            failures.append("SQNR %.1f < %.1f dB" % (sqnr, args.min_sqnr))
        if sqnr > args.max_sqnr:
            failures.append("SQNR %.1f > %.1f dB: not quantized?" % (sqnr, args.max_sqnr))
    print(line)
    if failures:
        print("%s: FAILED: %s" % (precision, "; ".join(failures)))
        sys.exit(1)
    print("%s: within limits" % precision)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("prepare")
    p.add_argument("out")
    e = commands.add_parser("evaluate")
    e.add_argument("out")
    e.add_argument("precision")
    e.add_argument("--kilnc", required=True)
    e.add_argument("--keep-fp32", default="")
    e.add_argument("--calibration-method", default="minmax")
    e.add_argument("--max-accuracy-drop", default="",
                   help="int8 within this budget (points) on OUT/validation; "
                        "the stats go to OUT/cnn.int8.kiln.json")
    e.add_argument("--baseline", default="")
    e.add_argument("--max-drop", type=float, default=0.1)
    e.add_argument("--min-agreement", type=float, default=99.5)
    e.add_argument("--min-sqnr", type=float, default=0.0)
    e.add_argument("--max-sqnr", type=float, default=float("inf"))
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.out)
    else:
        evaluate(args)


if __name__ == "__main__":
    main()
