#!/usr/bin/python3
"""volumetric_vs_torch.py OUTDIR --kilnc KILNC: 3-D Conv, ConvTranspose,
MaxPool and AveragePool nodes with the attributes that the ONNX node tests
leave out (groups, asymmetric pads, strides, dilations, ceil_mode,
count_include_pad, output_padding, SAME padding), each run through
`kilnc run` and compared with PyTorch's functional ops (fp32, rtol 1e-4,
atol 1e-5). Prints MATCH or DIFF per case and a SUMMARY line. Fixed seed."""
import numpy as np
import torch
import torch.nn.functional as F
from onnx import helper, numpy_helper

from kilnc_cases import cases_from_command_line

torch.manual_seed(0)
rng = np.random.default_rng(0)


def tensor(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def conv(name, x, w, bias=None, pads=(0,) * 6, torch_pad=None, **attrs):
    """ONNX pads are [d0, h0, w0, d1, h1, w1]; torch pads symmetric ones
    itself, so asymmetric ones go through F.pad (last dim first)."""
    inits = [numpy_helper.from_array(w, "w")]
    inputs = ["x", "w"]
    if bias is not None:
        inits.append(numpy_helper.from_array(bias, "b"))
        inputs.append("b")
    if torch_pad is None:
        padded = F.pad(torch.from_numpy(x), (pads[2], pads[5], pads[1],
                                             pads[4], pads[0], pads[3]))
        expected = F.conv3d(padded, torch.from_numpy(w),
                            None if bias is None else torch.from_numpy(bias),
                            stride=attrs.get("strides", 1),
                            dilation=attrs.get("dilations", 1),
                            groups=attrs.get("group", 1))
        attrs["pads"] = list(pads)
    else:
        expected = torch_pad(x, w, bias)
    node = helper.make_node("Conv", inputs, ["y"], name=name, **attrs)
    return node, inits, expected


cases = cases_from_command_line()


def case(name, built, x):
    node, inits, expected = built
    cases.add(name, [node], {"x": x}, {"y": expected.detach().numpy()},
              [(i.name, numpy_helper.to_array(i)) for i in inits])


# Conv: grouped, asymmetric pads, strides and dilations per axis, bias.
x = tensor(2, 4, 5, 6, 7)
case("conv3d_grouped_asymmetric",
     conv("conv3d_grouped_asymmetric", x, tensor(6, 2, 3, 3, 2), tensor(6),
          pads=(1, 0, 1, 0, 1, 1), strides=[2, 1, 2], dilations=[1, 2, 1],
          group=2), x)
# Conv: SAME_UPPER with stride 2 (the extra pad goes at the end), no bias.
x = tensor(1, 3, 7, 6, 5)
w = tensor(4, 3, 2, 3, 3)


def same_upper(x, w, bias):
    # Output = ceil(in / 2); total pad = (out - 1) * 2 + k - in, the smaller
    # half first.
    pads = []
    for size, k in zip(x.shape[2:], w.shape[2:]):
        total = max(0, (-(-size // 2) - 1) * 2 + k - size)
        pads.append((total // 2, total - total // 2))
    padded = F.pad(torch.from_numpy(x), (pads[2][0], pads[2][1], pads[1][0],
                                         pads[1][1], pads[0][0], pads[0][1]))
    return F.conv3d(padded, torch.from_numpy(w), stride=2)


case("conv3d_same_upper", conv("conv3d_same_upper", x, w,
                               torch_pad=same_upper, auto_pad="SAME_UPPER",
                               strides=[2, 2, 2]), x)
# Depthwise 3-D (groups = channels), a 1x1x1 kernel over depth only.
x = tensor(1, 4, 6, 5, 5)
case("conv3d_depthwise", conv("conv3d_depthwise", x, tensor(4, 1, 3, 1, 1),
                              group=4, pads=(1, 0, 0, 1, 0, 0)), x)

# ConvTranspose: grouped, strided, dilated, output_padding, bias.
x = tensor(1, 4, 3, 4, 5)
w = tensor(4, 3, 3, 2, 3)
b = tensor(6)
expected = F.conv_transpose3d(torch.from_numpy(x), torch.from_numpy(w),
                              torch.from_numpy(b), stride=(2, 1, 2),
                              padding=(1, 0, 1), output_padding=(1, 0, 1),
                              groups=2, dilation=(1, 2, 1))
case("convtranspose3d_grouped",
     (helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"],
                       name="deconv", strides=[2, 1, 2],
                       pads=[1, 0, 1, 1, 0, 1], output_padding=[1, 0, 1],
                       group=2, dilations=[1, 2, 1]),
      [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")],
      expected), x)


def pool(name, op, x, torch_fn, **attrs):
    node = helper.make_node(op, ["x"], ["y"], name=name, **attrs)
    case(name, (node, [], torch_fn(torch.from_numpy(x))), x)


x = tensor(2, 3, 7, 8, 9)
pool("maxpool3d_ceil_dilated", "MaxPool", x,
     lambda t: F.max_pool3d(t, (3, 2, 3), stride=2, padding=1, dilation=(1, 1, 2),
                            ceil_mode=True),
     kernel_shape=[3, 2, 3], strides=[2, 2, 2], pads=[1, 1, 1, 1, 1, 1],
     dilations=[1, 1, 2], ceil_mode=1)
pool("avgpool3d_ceil_exclude_pad", "AveragePool", x,
     lambda t: F.avg_pool3d(t, 3, stride=2, padding=1, ceil_mode=True,
                            count_include_pad=False),
     kernel_shape=[3, 3, 3], strides=[2, 2, 2], pads=[1, 1, 1, 1, 1, 1],
     ceil_mode=1)
pool("avgpool3d_include_pad", "AveragePool", x,
     lambda t: F.avg_pool3d(t, (3, 2, 2), stride=(2, 1, 2), padding=(1, 1, 0),
                            count_include_pad=True),
     kernel_shape=[3, 2, 2], strides=[2, 1, 2], pads=[1, 1, 0, 1, 1, 0],
     count_include_pad=1)

cases.check()
