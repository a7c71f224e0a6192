#!/usr/bin/python3
"""batchnorm_training_vs_numpy.py OUTDIR --kilnc KILNC: training-mode
BatchNormalization (opset 15) on a rank-3 and a rank-5 input with a
non-default momentum and epsilon, against numpy: the output normalised
with the batch's mean and biased variance, and the running statistics
input * momentum + batch * (1 - momentum). Fixed seed."""
import numpy as np
from onnx import helper

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
cases = cases_from_command_line()
MOMENTUM, EPSILON = 0.7, 1e-3

for name, shape in [("rank3", (4, 3, 5)), ("rank5", (2, 3, 2, 3, 4))]:
    x = (rng.standard_normal(shape) * 2 + 1).astype(np.float32)
    c = shape[1]
    scale, bias = rng.standard_normal(c).astype(np.float32), \
        rng.standard_normal(c).astype(np.float32)
    mean, var = rng.standard_normal(c).astype(np.float32), \
        rng.uniform(0.5, 2, c).astype(np.float32)
    axes = tuple(d for d in range(len(shape)) if d != 1)
    bm, bv = x.mean(axes), x.var(axes)
    b = lambda v: v.reshape([1, c] + [1] * (len(shape) - 2))
    y = (x - b(bm)) / np.sqrt(b(bv) + EPSILON) * b(scale) + b(bias)
    cases.add("batchnorm_training_" + name,
              [helper.make_node("BatchNormalization",
                                ["x", "scale", "bias", "mean", "var"],
                                ["y", "running_mean", "running_var"],
                                training_mode=1, momentum=MOMENTUM,
                                epsilon=EPSILON)],
              {"x": x},
              {"y": y, "running_mean": mean * MOMENTUM + bm * (1 - MOMENTUM),
               "running_var": var * MOMENTUM + bv * (1 - MOMENTUM)},
              [("scale", scale), ("bias", bias), ("mean", mean),
               ("var", var)], opsets=(("", 15),))
cases.check()
