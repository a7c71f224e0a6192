#!/usr/bin/python3
"""gradient_vs_torch.py OUTDIR --kilnc KILNC: the Gradient operator
(ai.onnx.preview.training) of small graphs with broadcasting, shared
operands and every differentiated op, against torch.autograd (the gradient
of the sum of y); an x that y does not depend on gets zeros; an op without
a rule is refused (exit 3). Fixed seed."""
import numpy as np
import torch
from onnx import helper

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
node = helper.make_node
TRAINING = "ai.onnx.preview.training"
OPSETS = (("", 17), (TRAINING, 1))
cases = cases_from_command_line()


def gradient(xs, y, outputs):
    return node("Gradient", xs, outputs, domain=TRAINING, xs=xs, y=y)


def torch_gradients(fn, arrays):
    tensors = [torch.tensor(a, requires_grad=True) for a in arrays]
    fn(*tensors).sum().backward()
    return [t.grad.numpy() for t in tensors]


a = rng.standard_normal((3, 4)).astype(np.float32)
b = rng.uniform(0.5, 2.0, (4,)).astype(np.float32)   # broadcast along rows
c = rng.uniform(0.5, 2.0, (3, 1)).astype(np.float32)  # and along columns

# y = sigmoid(a * b) / c + tanh(a) * a - exp(-a) + log(c) + relu(a - b)
ga, gb, gc = torch_gradients(
    lambda a, b, c: torch.sigmoid(a * b) / c + torch.tanh(a) * a
    - torch.exp(-a) + torch.log(c) + torch.relu(a - b), [a, b, c])
cases.add("every_rule_broadcast",
          [node("Mul", ["a", "b"], ["ab"]), node("Sigmoid", ["ab"], ["s"]),
           node("Div", ["s", "c"], ["q"]), node("Tanh", ["a"], ["t"]),
           node("Mul", ["t", "a"], ["ta"]), node("Neg", ["a"], ["na"]),
           node("Exp", ["na"], ["e"]), node("Log", ["c"], ["lc"]),
           node("Sub", ["a", "b"], ["d"]), node("Relu", ["d"], ["r"]),
           node("Add", ["q", "ta"], ["u"]), node("Sub", ["u", "e"], ["v"]),
           node("Add", ["v", "lc"], ["w"]), node("Add", ["w", "r"], ["y"]),
           gradient(["a", "b", "c"], "y", ["ga", "gb", "gc"])],
          {"a": a, "b": b, "c": c}, {"ga": ga, "gb": gb, "gc": gc},
          opsets=OPSETS)
# Through a reshape; the second x does not reach y.
r = rng.standard_normal((2, 6)).astype(np.float32)
(gr,) = torch_gradients(lambda r: (r.reshape(3, 4) * torch.from_numpy(a)).exp(),
                        [r])
cases.add("reshape_and_unused",
          [node("Reshape", ["r", "shape"], ["r34"]),
           node("Mul", ["r34", "a"], ["m"]), node("Exp", ["m"], ["y"]),
           gradient(["r", "a2"], "y", ["gr", "ga2"])],
          {"r": r, "a2": a}, {"gr": gr, "ga2": np.zeros_like(a)},
          initializers=[("a", a), ("shape", np.array([3, 4], np.int64))],
          opsets=OPSETS)
cases.add("no_rule",
          [node("MatMul", ["a", "bt"], ["y"]),
           gradient(["a"], "y", ["ga"])],
          {"a": a}, {"ga": a},
          initializers=[("bt", a.T.copy())], opsets=OPSETS, expect_exit=3,
          expect_error="no derivative rule for 'kiln.matmul'")
cases.check()
