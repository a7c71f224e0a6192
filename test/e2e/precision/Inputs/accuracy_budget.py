#!/usr/bin/env python3
"""Inputs for kilnc --max-accuracy-drop (accuracy-budget.test).

  model DIR    writes DIR/model.onnx, DIR/calibration/, DIR/validation/
               (one sub-folder per sample with x.npy), DIR/labels.npy (the
               fp32 model's own predictions, so fp32 top-1 is 100%),
               DIR/short-labels.npy (one label too few) and
               DIR/float-labels.npy (float32).
  check DIR/stats.json BUDGET
               checks the stats' "precision" object: the final drop is
               within BUDGET, layers named fc1 and fc2, and prints each
               layer's precision.

The model is x[1, 16] -> MatMul fc1 (16 x 32) -> Relu -> MatMul fc2
(32 x 4). Feature 0 of x has zero weights but an outlier (400) in the
calibration data: fc1's activation scale is then ~1.6, which rounds the
other features (about +-1) to 0 or +-1.6, and its int8 flips many
predictions. fc2 reads well-scaled activations; its int8 barely matters.
"""

import json
import os
import sys

import numpy as np


def model(folder):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(3)
    w1 = rng.standard_normal((16, 32)).astype(np.float32)
    w1[0] = 0
    w2 = rng.standard_normal((32, 4)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
         helper.make_node("Relu", ["h"], ["r"], name="relu"),
         helper.make_node("MatMul", ["r", "w2"], ["y"], name="fc2")],
        "budget",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(folder, "model.onnx"))

    def samples(name, count, outlier):
        xs = []
        for i in range(count):
            x = rng.standard_normal((1, 16)).astype(np.float32)
            if outlier and i == 0:
                x[0, 0] = 400
            os.makedirs(os.path.join(folder, name, "s%03d" % i))
            np.save(os.path.join(folder, name, "s%03d" % i, "x.npy"), x)
            xs.append(x)
        return np.concatenate(xs)

    samples("calibration", 16, outlier=True)
    x = samples("validation", 200, outlier=False)
    labels = (np.maximum(x @ w1, 0) @ w2).argmax(axis=1).astype(np.int64)
    np.save(os.path.join(folder, "labels.npy"), labels)
    np.save(os.path.join(folder, "short-labels.npy"), labels[:-1])
    np.save(os.path.join(folder, "float-labels.npy"), labels.astype(np.float32))


def check(path, budget):
    with open(path) as f:
        precision = json.load(f)["precision"]
    drop = precision["fp32_top1"] - precision["top1"]
    names = [layer["name"] for layer in precision["layers"]]
    if names != ["fc1", "fc2"] or drop > budget + 1e-9 or precision["fp32_top1"] != 100:
        print("FAILED: layers %s, fp32 %.2f, drop %.2f over a budget of %g"
              % (names, precision["fp32_top1"], drop, budget))
        sys.exit(1)
    print("within the budget: top-1 %.1f (fp32 %.1f, all int8 %.1f)"
          % (precision["top1"], precision["fp32_top1"], precision["all_int8_top1"]))
    for layer in precision["layers"]:
        print("%s %s" % (layer["name"], layer["precision"]))


if __name__ == "__main__":
    if sys.argv[1] == "model":
        model(sys.argv[2])
    else:
        check(sys.argv[2], float(sys.argv[3]))
