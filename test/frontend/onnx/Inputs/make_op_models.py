#!/usr/bin/python3
"""Writes the models of converters.test: ONNX ops that the importer spells
out in other kiln ops, each with inputs and a NumPy reference (written from
the ONNX operator specification), plus models that must be refused.
Deterministic (fixed seed)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.RandomState(0)
ONNX_TYPE = {np.float32: TensorProto.FLOAT, np.int32: TensorProto.INT32,
             np.int64: TensorProto.INT64, np.bool_: TensorProto.BOOL,
             np.float64: TensorProto.DOUBLE}


def case(name, node, inputs, expected, opset=16, y_shape=None, inits=()):
    """`inputs`: (name, array) pairs, all graph inputs; `expected`: y,
    declared with `y_shape`; `inits`: (name, array) initializers."""
    infos = [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype.type], a.shape)
             for n, a in inputs]
    y = helper.make_tensor_value_info("y", ONNX_TYPE[np.asarray(expected).dtype.type], y_shape)
    graph = helper.make_graph([node], name, infos, [y],
                              [numpy_helper.from_array(a, n) for n, a in inits])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))
    for n, a in inputs:
        np.save(os.path.join(out, f"{name}.{n}.npy"), a)
    np.save(os.path.join(out, f"{name}.expected.npy"), np.asarray(expected))


def node(op, inputs, **attrs):
    return helper.make_node(op, inputs, ["y"], name="the_" + op.lower(), **attrs)


f32 = lambda *s: rng.randn(*s).astype(np.float32)

# Clip with run-time bounds is min(max(x, lo), hi), even when lo > hi.
x = f32(3, 4)
lo, hi = np.array(0.5, np.float32), np.array(-0.5, np.float32)
case("clip_dynamic", node("Clip", ["x", "lo", "hi"]),
     [("x", x), ("lo", lo), ("hi", hi)], np.minimum(np.maximum(x, lo), hi))

# Trilu with a run-time k.
x = f32(2, 4, 5)
case("trilu_dynamic", node("Trilu", ["x", "k"], upper=0),
     [("x", x), ("k", np.array(-1, np.int64))], np.tril(x, -1))

# Mod: fmod=0 takes the divisor's sign, fmod=1 the dividend's.
a = rng.randint(-20, 21, size=(3, 5)).astype(np.int32)
b = (rng.randint(1, 7, size=(5,)) * rng.choice([-1, 1], size=(5,))).astype(np.int32)
case("mod_int", node("Mod", ["a", "b"]), [("a", a), ("b", b)], np.mod(a, b))
a, b = f32(3, 5) * 10, f32(5) * 3
case("mod_fmod", node("Mod", ["a", "b"], fmod=1), [("a", a), ("b", b)], np.fmod(a, b))


def conv_transpose(x, w, strides, pads, dilations, out_pad, group):
    """Direct definition: every input element scatters kernel * value."""
    n, c, h, wd = x.shape
    m = w.shape[1] * group
    kh, kw = w.shape[2:]
    full = [(h - 1) * strides[0] + dilations[0] * (kh - 1) + 1 + out_pad[0],
            (wd - 1) * strides[1] + dilations[1] * (kw - 1) + 1 + out_pad[1]]
    y = np.zeros((n, m) + tuple(full), np.float64)
    cg, mg = c // group, m // group
    for ci in range(c):
        g = ci // cg
        for i in range(h):
            for j in range(wd):
                for a_ in range(kh):
                    for b_ in range(kw):
                        y[:, g * mg:(g + 1) * mg, i * strides[0] + a_ * dilations[0],
                          j * strides[1] + b_ * dilations[1]] += \
                            x[:, ci, i, j][:, None] * w[ci, :, a_, b_][None, :]
    return y[:, :, pads[0]:full[0] - pads[2], pads[1]:full[1] - pads[3]].astype(np.float32)


x, w, bias = f32(2, 4, 3, 4), f32(4, 3, 3, 2), f32(6)
ref = conv_transpose(x, w, [2, 3], [1, 0, 2, 1], [1, 2], [1, 0], 2) + bias[None, :, None, None]
case("convtranspose_group", node("ConvTranspose", ["x", "w", "b"], group=2, strides=[2, 3],
                                 pads=[1, 0, 2, 1], dilations=[1, 2], output_padding=[1, 0]),
     [("x", x), ("w", w), ("b", bias)], ref)

# ScatterElements with reduction=add along axis 1 (indices smaller than data).
data, idx, upd = f32(3, 5), np.array([[0, -1], [2, 2], [4, 0]], np.int64), f32(3, 2)
ref = data.copy()
for i in range(3):
    for j in range(2):
        ref[i, idx[i, j] % 5] += upd[i, j]
case("scatter_elements_add", node("ScatterElements", ["data", "idx", "upd"], axis=1,
                                  reduction="add"),
     [("data", data), ("idx", idx), ("upd", upd)], ref)

# ScatterND with reduction=mul on slices.
data, idx, upd = f32(4, 3), np.array([[1], [3], [1]], np.int64), f32(3, 3)
ref = data.copy()
for i in range(3):
    ref[idx[i, 0]] *= upd[i]
case("scatternd_mul", node("ScatterND", ["data", "idx", "upd"], reduction="mul"),
     [("data", data), ("idx", idx), ("upd", upd)], ref)

# GatherND with batch_dims=1 and negative indices.
data = f32(2, 3, 4)
idx = np.array([[[0, -1], [2, 1]], [[-3, 0], [1, 3]]], np.int64)
ref = np.stack([np.stack([data[bi][tuple(t)] for t in idx[bi]]) for bi in range(2)])
case("gathernd_batch", node("GatherND", ["data", "idx"], batch_dims=1),
     [("data", data), ("idx", idx)], ref)

# CumSum whose axis is a graph input.
x = rng.randint(-9, 10, size=(2, 3, 4)).astype(np.int32)
case("cumsum_dynamic_axis", node("CumSum", ["x", "axis"]),
     [("x", x), ("axis", np.array(-2, np.int64))], np.cumsum(x, axis=1).astype(np.int32))

# Refused: exit 3 (valid but unsupported) or 2 (invalid).
case("scatter_max", node("ScatterElements", ["data", "idx", "upd"], reduction="max"),
     [("data", f32(3)), ("idx", np.array([0], np.int64)), ("upd", f32(1))],
     np.zeros(3, np.float32))
case("scatter_bool", node("ScatterND", ["data", "idx", "upd"]),
     [("data", np.zeros(3, np.bool_)), ("idx", np.array([[0]], np.int64)),
      ("upd", np.ones(1, np.bool_))], np.zeros(3, np.bool_))
case("cumsum_dynamic_rank5", node("CumSum", ["x", "axis"]),
     [("x", f32(1, 1, 1, 1, 2)), ("axis", np.array(0, np.int64))], np.zeros(1, np.float32))
case("mod_bad_fmod", node("Mod", ["a", "b"], fmod=2),
     [("a", f32(2)), ("b", f32(2))], np.zeros(2, np.float32))
case("convtranspose_bad_output_padding",
     node("ConvTranspose", ["x", "w"], strides=[2, 2], output_padding=[2, 0]),
     [("x", f32(1, 1, 2, 2)), ("w", f32(1, 1, 2, 2))], np.zeros(1, np.float32))
case("gridsample_3d", node("GridSample", ["x", "g"]),
     [("x", f32(1, 1, 2, 2, 2)), ("g", f32(1, 2, 2, 2, 3))], np.zeros(1, np.float32))
case("gridsample_bad_mode", node("GridSample", ["x", "g"], mode="area"),
     [("x", f32(1, 1, 2, 2)), ("g", f32(1, 2, 2, 2))], np.zeros(1, np.float32))
case("einsum_bad_operands", node("Einsum", ["a"], equation="ij,jk->ik"),
     [("a", f32(2, 3))], np.zeros(1, np.float32))

# Einsum: a diagonal, an ellipsis that broadcasts, and a contraction.
a, b = f32(2, 1, 3, 4), f32(5, 4, 4)
case("einsum_mixed", node("Einsum", ["a", "b"], equation="...ij,...jj->...ij"),
     [("a", a), ("b", b)], np.einsum("...ij,...jj->...ij", a, b))

# GridSample against PyTorch's grid_sample (the specification's reference),
# coordinates partly outside the input.
import torch  # noqa: E402  (only this case needs it)

for mode, padding, align in (("bilinear", "reflection", 0), ("bicubic", "border", 1),
                             ("nearest", "zeros", 0)):
    x, g = f32(2, 3, 4, 5), (rng.rand(2, 3, 6, 2) * 3 - 1.5).astype(np.float32)
    ref = torch.nn.functional.grid_sample(
        torch.from_numpy(x), torch.from_numpy(g), mode=mode, padding_mode=padding,
        align_corners=bool(align)).numpy()
    case(f"gridsample_{mode}", node("GridSample", ["x", "g"], mode=mode,
                                    padding_mode=padding, align_corners=align),
         [("x", x), ("g", g)], ref)

# Resize against the ONNX reference implementation: constant scales, and
# run-time scales with the output shape the model declares.
from onnx.backend.test.case.node.resize import (  # noqa: E402
    cubic_coeffs, interpolate_nd, linear_coeffs)

x = f32(1, 2, 5, 4)
scales = np.array([1, 1, 1.7, 0.6], np.float32)
ref = interpolate_nd(x, lambda r: cubic_coeffs(r, A=-0.5), scale_factors=scales,
                     exclude_outside=True).astype(np.float32)
case("resize_cubic", node("Resize", ["x", "", "scales"], mode="cubic", cubic_coeff_a=-0.5,
                          exclude_outside=1),
     [("x", x)], ref, inits=[("scales", scales)])
ref = interpolate_nd(x, linear_coeffs, scale_factors=scales,
                     coordinate_transformation_mode="align_corners").astype(np.float32)
case("resize_runtime_scales", node("Resize", ["x", "", "scales"], mode="linear",
                                   coordinate_transformation_mode="align_corners"),
     [("x", x), ("scales", scales)], ref, y_shape=list(ref.shape))
case("resize_undeclared", node("Resize", ["x", "", "scales"]),
     [("x", x), ("scales", scales)], ref)
case("resize_int_linear", node("Resize", ["x", "", "scales"], mode="linear"),
     [("x", np.zeros((2, 2), np.int32))], np.zeros((4, 4), np.int32),
     inits=[("scales", np.array([2, 2], np.float32))])
case("resize_bad_mode", node("Resize", ["x", "", "scales"], mode="area"),
     [("x", x)], ref, inits=[("scales", scales)])
# A run-time scale with a declared output of 2^31 along one axis (the
# importer fuzzer's find: it used to allocate 16 GiB of coordinates).
case("resize_huge_declared", node("Upsample", ["x", "scales"], mode="nearest"),
     [("x", f32(1, 1, 2, 2)), ("scales", np.ones(4, np.float32))], ref,
     opset=9, y_shape=[1, 1, 4, 2**31 - 1])

# ReverseSequence on a rank-3 input, time axis 0.
x = f32(5, 3, 2)
lens = np.array([5, 1, 3], np.int64)
ref = x.copy()
for b in range(3):
    ref[:lens[b], b] = x[:lens[b], b][::-1]
case("reverse_sequence", node("ReverseSequence", ["x", "lens"], batch_axis=1, time_axis=0),
     [("x", x), ("lens", lens)], ref)

# MaxUnpool: values land at their flat indices; a smaller output_shape is
# refused.
xv = np.array([[[[5, 6], [7, 8]]], [[[1, 2], [3, 4]]]], np.float32)
xi = np.array([[[[0, 3], [9, 14]]], [[[17, 18], [28, 31]]]], np.int64)
ref = np.zeros(2 * 16, np.float32)
ref[xi.reshape(-1)] = xv.reshape(-1)
case("maxunpool", node("MaxUnpool", ["x", "i"], kernel_shape=[2, 2], strides=[2, 2]),
     [("x", xv), ("i", xi)], ref.reshape(2, 1, 4, 4))
case("maxunpool_small_shape",
     node("MaxUnpool", ["x", "i", "s"], kernel_shape=[2, 2], strides=[2, 2]),
     [("x", xv), ("i", xi)], np.zeros(1, np.float32),
     inits=[("s", np.array([2, 1, 3, 3], np.int64))])

# MaxPool's Indices output (flat indices into X) against torch, with pads,
# dilations and ceil_mode; integer inputs are refused.
x = f32(2, 3, 7, 8)
y_ref, z_ref = torch.nn.functional.max_pool2d(
    torch.from_numpy(x), (2, 3), (2, 1), (0, 1), (2, 1), ceil_mode=True,
    return_indices=True)
mp = helper.make_node("MaxPool", ["x"], ["y", "z"], name="the_maxpool", kernel_shape=[2, 3],
                      strides=[2, 1], pads=[0, 1, 0, 1], dilations=[2, 1], ceil_mode=1)
graph = helper.make_graph([mp], "maxpool_indices",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
                           helper.make_tensor_value_info("z", TensorProto.INT64, None)])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)]),
          os.path.join(out, "maxpool_indices.onnx"))
np.save(os.path.join(out, "maxpool_indices.x.npy"), x)
np.save(os.path.join(out, "maxpool_indices.expected_y.npy"), y_ref.numpy())
np.save(os.path.join(out, "maxpool_indices.expected_z.npy"),
        z_ref.numpy() + np.arange(6).reshape(2, 3, 1, 1) * 56)
mp = helper.make_node("MaxPool", ["x"], ["y", "z"], name="the_maxpool", kernel_shape=[2, 2])
graph = helper.make_graph([mp], "maxpool_indices_int",
                          [helper.make_tensor_value_info("x", TensorProto.INT32, [1, 1, 2, 2])],
                          [helper.make_tensor_value_info("y", TensorProto.INT32, None),
                           helper.make_tensor_value_info("z", TensorProto.INT64, None)])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)]),
          os.path.join(out, "maxpool_indices_int.onnx"))

# TopK, smallest along axis 1 with ties (the lower index first, as ONNX
# asks), against a stable NumPy sort; K a constant.
x = np.array([[[3, 1], [1, 5], [2, 1], [1, 0]]], np.float32)  # [1, 4, 2]
order = np.argsort(x, axis=1, kind="stable")[:, :3]
tk = helper.make_node("TopK", ["x", "k"], ["y", "i"], name="the_topk", axis=1,
                      largest=0)
graph = helper.make_graph([tk], "topk_smallest",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
                           helper.make_tensor_value_info("i", TensorProto.INT64, None)],
                          [numpy_helper.from_array(np.array([3], np.int64), "k")])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]),
          os.path.join(out, "topk_smallest.onnx"))
np.save(os.path.join(out, "topk_smallest.x.npy"), x)
np.save(os.path.join(out, "topk_smallest.expected_y.npy"), np.take_along_axis(x, order, 1))
np.save(os.path.join(out, "topk_smallest.expected_i.npy"), order.astype(np.int64))

# HannWindow (symmetric), against NumPy's own Hann window.
case("hann_symmetric", node("HannWindow", ["n"], periodic=0), [],
     np.hanning(7).astype(np.float32), opset=17,
     inits=[("n", np.array(7, np.int64))])
