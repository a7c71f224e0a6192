#!/usr/bin/python3
"""roialign_vs_torchvision.py OUTDIR --kilnc KILNC: RoiAlign (average
mode) against torchvision.ops.roi_align: half_pixel (aligned) and
output_half_pixel, a spatial scale, regions of two images reaching past
the border, fixed and adaptive sampling (with the regions constants, and
as a graph input that `kilnc run` binds); max mode is refused (exit 3).
Fixed seed."""
import numpy as np
import torch
from onnx import helper
from torchvision.ops import roi_align

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
cases = cases_from_command_line()

x = rng.standard_normal((2, 3, 12, 10)).astype(np.float32)
rois = np.array([[1.0, 2.0, 15.0, 9.5], [-3.0, -2.0, 6.0, 30.0],
                 [4.5, 4.5, 5.0, 5.2], [0.0, 0.0, 19.0, 23.0]], np.float32)
batch = np.array([0, 1, 1, 0], np.int64)


def expected(aligned, ratio):
    boxes = torch.cat([torch.from_numpy(batch).float()[:, None],
                       torch.from_numpy(rois)], 1)
    return roi_align(torch.from_numpy(x), boxes, (3, 4), spatial_scale=0.5,
                     sampling_ratio=ratio, aligned=aligned).numpy()


for aligned in (True, False):
    for ratio in (2, 0):
        mode = "half_pixel" if aligned else "output_half_pixel"
        name = "roialign_%s_ratio%d" % (mode, ratio)
        attrs = dict(output_height=3, output_width=4, sampling_ratio=ratio,
                     spatial_scale=0.5, coordinate_transformation_mode=mode)
        node = helper.make_node("RoiAlign", ["x", "rois", "batch"], ["y"],
                                **attrs)
        if ratio:  # regions as run-time data
            cases.add(name, [node], {"x": x, "rois": rois, "batch": batch},
                      {"y": expected(aligned, ratio)},
                      opsets=(("", 16),))
        else:  # adaptive: regions as constants
            cases.add(name, [node], {"x": x}, {"y": expected(aligned, 0)},
                      [("rois", rois), ("batch", batch)],
                      opsets=(("", 16),))
cases.add("roialign_adaptive_bound_input",
          [helper.make_node("RoiAlign", ["x", "rois", "batch"], ["y"],
                            output_height=3, output_width=4,
                            sampling_ratio=0, spatial_scale=0.5)],
          {"x": x, "rois": rois, "batch": batch},
          {"y": expected(True, 0)}, opsets=(("", 16),))
cases.add("roialign_max",
          [helper.make_node("RoiAlign", ["x", "rois", "batch"], ["y"],
                            mode="max", sampling_ratio=2)],
          {"x": x, "rois": rois, "batch": batch}, {"y": x}, expect_exit=3,
          opsets=(("", 16),), expect_error="RoiAlign's max mode is not "
                                           "supported")
cases.check()
