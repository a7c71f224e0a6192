#!/usr/bin/python3
"""roialign_vs_torchvision.py OUTDIR --kilnc KILNC: RoiAlign (average
mode) against torchvision.ops.roi_align: half_pixel (aligned) and
output_half_pixel, a spatial scale, regions of two images reaching past
the border, fixed and adaptive sampling (with the regions constants, and
as a graph input that `kilnc run` binds); max mode against a loop-by-loop
NumPy model of ONNX Runtime's (the largest weighted corner of the largest
sample; torchvision has no max mode).
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


def max_mode(aligned, ratio, scale=0.5, out_h=3, out_w=4):
    """RoiAlign max mode as ONNX Runtime computes it, by loops: per bin,
    the largest over its samples of the largest of the four weighted
    bilinear corners; samples outside [-1, size] count as 0."""
    n, c, h, w = x.shape
    y = np.zeros((len(rois), c, out_h, out_w), np.float64)
    offset = 0.5 if aligned else 0.0
    for r, (box, b) in enumerate(zip(rois.astype(np.float64), batch)):
        x1, y1, x2, y2 = box * scale - offset
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bw, bh = rw / out_w, rh / out_h
        for ph in range(out_h):
            for pw in range(out_w):
                best = None
                for iy in range(ratio):
                    for ix in range(ratio):
                        sy = y1 + ph * bh + (iy + 0.5) * bh / ratio
                        sx = x1 + pw * bw + (ix + 0.5) * bw / ratio
                        if sy < -1 or sy > h or sx < -1 or sx > w:
                            value = np.zeros(c)
                        else:
                            sy, sx = max(sy, 0.0), max(sx, 0.0)
                            ly, lx = int(sy), int(sx)
                            if ly >= h - 1:
                                ly = hy = h - 1
                                sy = float(ly)
                            else:
                                hy = ly + 1
                            if lx >= w - 1:
                                lx = hx = w - 1
                                sx = float(lx)
                            else:
                                hx = lx + 1
                            fy, fx = sy - ly, sx - lx
                            img = x[b].astype(np.float64)
                            value = np.max([(1 - fy) * (1 - fx) * img[:, ly, lx],
                                            (1 - fy) * fx * img[:, ly, hx],
                                            fy * (1 - fx) * img[:, hy, lx],
                                            fy * fx * img[:, hy, hx]], axis=0)
                        best = value if best is None else np.maximum(best, value)
                y[r, :, ph, pw] = best
    return y.astype(np.float32)


for aligned in (True, False):
    mode = "half_pixel" if aligned else "output_half_pixel"
    cases.add("roialign_max_%s" % mode,
              [helper.make_node("RoiAlign", ["x", "rois", "batch"], ["y"],
                                mode="max", output_height=3, output_width=4,
                                sampling_ratio=2, spatial_scale=0.5,
                                coordinate_transformation_mode=mode)],
              {"x": x, "rois": rois, "batch": batch},
              {"y": max_mode(aligned, 2)}, opsets=(("", 16),))
cases.check()
