#!/usr/bin/python3
"""data_dependent_vs_reference.py OUTDIR --kilnc KILNC: the ops whose output
length depends on the data (frontend/onnx/ops/DataDependentOps.cpp), run by
`kilnc run`, against independent references: NonZero and Compress against
numpy.nonzero and numpy.compress (bool, integer and float data, 64,000
entries, all and none kept), Unique against numpy.unique (sorted, in order
of first occurrence, along an axis), NonMaxSuppression against
torchvision.ops.nms per batch and class (both box formats, thresholds, the
per-class limit, ties, 128 boxes). Then what is refused with exit 3: a
bounded value used by another node or leaving an If branch, too many
boxes, too many slices; and a length output whose name is taken (exit 2).
Fixed seed."""
import os

import numpy as np
import onnx
import torch
import torchvision
from onnx import helper

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
cases = cases_from_command_line(rtol=0, atol=0)
node = helper.make_node


# NonZero: row-major indices of the non-zero entries.
def nonzero(name, x):
    cases.add(name, [node("NonZero", ["x"], ["y"])], {"x": x},
              {"y": np.array(np.nonzero(x), np.int64)})


sparse = rng.standard_normal((64, 1000)).astype(np.float32)
sparse[sparse < 0.5] = 0
nonzero("nonzero_64000", sparse)
nonzero("nonzero_bool_3d", rng.random((3, 4, 5)) < 0.3)
nonzero("nonzero_int_all", rng.integers(1, 9, (2, 7)).astype(np.int32))
nonzero("nonzero_none", np.zeros((4, 6), np.float32))


# Compress: the slices whose condition is true; a short condition drops the
# slices past its end.
def compress(name, x, condition, axis=None):
    attrs = {} if axis is None else {"axis": axis}
    cases.add(name, [node("Compress", ["x", "c"], ["y"], **attrs)],
              {"x": x, "c": condition},
              {"y": np.compress(condition, x, axis=axis)})


data = rng.standard_normal((5, 6, 7)).astype(np.float32)
compress("compress_axis1", data, rng.random(6) < 0.5, axis=1)
compress("compress_negative_axis_short", data, np.array([1, 0, 1], bool), -1)
compress("compress_flat", data, rng.random(100) < 0.2)
compress("compress_int_none_kept", np.arange(12, dtype=np.int64).reshape(3, 4),
         np.zeros(3, bool), axis=0)


# Unique: Y, first indices, inverse indices, counts.
def unique(name, x, axis=None, is_sorted=True):
    values, first, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True,
        axis=axis)
    inverse = inverse.reshape(-1)
    if not is_sorted:
        # numpy sorts; ONNX's unsorted order is that of first occurrence.
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        values = np.take(values, order, axis=0 if axis is None else axis)
        first, counts, inverse = first[order], counts[order], rank[inverse]
    attrs = {"sorted": int(is_sorted)}
    if axis is not None:
        attrs["axis"] = axis
    cases.add(name, [node("Unique", ["x"], ["y", "i", "inv", "n"], **attrs)],
              {"x": x},
              {"y": values, "i": first.astype(np.int64),
               "inv": inverse.astype(np.int64), "n": counts.astype(np.int64)})


unique("unique_sorted", rng.integers(-20, 20, 300).astype(np.float32))
unique("unique_first_seen", rng.integers(0, 9, (6, 7)).astype(np.int64),
       is_sorted=False)
rows = rng.integers(0, 3, (40, 3)).astype(np.float32)
unique("unique_rows", rows, axis=0)
with_nan = rng.integers(0, 5, 50).astype(np.float32)
with_nan[[3, 17, 40]] = np.nan  # NaNs equal each other and sort last
unique("unique_nan", with_nan)
cases.add("unique_skipped_outputs_negative_axis",
          [node("Unique", ["x"], ["y", "", "", "n"], axis=-2)],
          {"x": rows}, {"y": np.unique(rows, axis=0),
                        "n": np.unique(rows, axis=0, return_counts=True)[1]})
unique("unique_columns",
       np.ascontiguousarray(np.concatenate([rows.T, rows.T[:, :5]], 1)), axis=1)


# NonMaxSuppression against torchvision, one (batch, class) at a time.
def reference_nms(boxes, scores, limit, iou, score_threshold, center):
    selected = []
    for b in range(boxes.shape[0]):
        corners = torch.tensor(boxes[b], dtype=torch.float64)
        if center:
            xy, wh = corners[:, :2], corners[:, 2:]
            corners = torch.cat([xy - wh / 2, xy + wh / 2], 1)
        else:  # [y1, x1, y2, x2] with either diagonal -> [x1, y1, x2, y2]
            y = corners[:, [0, 2]].sort(1).values
            x = corners[:, [1, 3]].sort(1).values
            corners = torch.stack([x[:, 0], y[:, 0], x[:, 1], y[:, 1]], 1)
        for c in range(scores.shape[1]):
            score = torch.tensor(scores[b, c], dtype=torch.float64)
            candidates = torch.nonzero(score > score_threshold).flatten()
            kept = torchvision.ops.nms(corners[candidates], score[candidates],
                                       iou)
            for i in candidates[kept][:limit].tolist():
                selected.append([b, c, i])
    return np.array(selected, np.int64).reshape(-1, 3)


def nms(name, boxes, scores, limit, iou, score_threshold, center=0):
    # ONNX suppresses only boxes that overlap: for a negative threshold,
    # torchvision's "IoU above 0".
    cases.add(name,
              [node("NonMaxSuppression", ["b", "s", "m", "t", "st"], ["y"],
                    center_point_box=center)],
              {"b": boxes, "s": scores},
              {"y": reference_nms(boxes, scores, limit, max(iou, 0.0),
                                  score_threshold, center)},
              initializers=[("m", np.array([limit], np.int64)),
                            ("t", np.array([iou], np.float32)),
                            ("st", np.array([score_threshold], np.float32))])


def random_boxes(batches, count, flip=False):
    corner = rng.uniform(0, 100, (batches, count, 2))
    size = rng.uniform(5, 30, (batches, count, 2))
    boxes = np.concatenate([corner, corner + size], -1)[..., [1, 0, 3, 2]]
    if flip:  # the other diagonal for half of the boxes
        boxes[:, ::2] = boxes[:, ::2][..., [2, 3, 0, 1]]
    return np.ascontiguousarray(boxes, np.float32)


nms("nms_128_boxes", random_boxes(2, 128), rng.random((2, 3, 128)).astype(
    np.float32), limit=20, iou=0.5, score_threshold=0.1)
nms("nms_flipped_low_iou", random_boxes(1, 40, flip=True),
    rng.random((1, 2, 40)).astype(np.float32), limit=100, iou=0.1,
    score_threshold=0.0)
centers = np.concatenate([rng.uniform(0, 50, (1, 30, 2)),
                          rng.uniform(5, 20, (1, 30, 2))], -1)
nms("nms_center_format", centers.astype(np.float32),
    rng.random((1, 4, 30)).astype(np.float32), limit=5, iou=0.3,
    score_threshold=0.2, center=1)
# Distinct scores (torchvision orders ties by its own sort), but duplicated
# boxes: each suppresses its copy.
boxes = random_boxes(1, 10)
nms("nms_duplicates", np.concatenate([boxes, boxes], 1),
    rng.permutation(20).astype(np.float32).reshape(1, 1, 20) / 20,
    limit=20, iou=0.9, score_threshold=-1.0)

# Every box kept up to INT64_MAX (what exporters write for "no limit"),
# only overlapping boxes suppressed under a negative threshold, and NaN
# scores (below any score threshold) that must not disturb the ranking.
nms("nms_no_limit_negative_iou", random_boxes(1, 60),
    rng.random((1, 1, 60)).astype(np.float32), limit=2**63 - 1, iou=-0.5,
    score_threshold=0.3)
nan_scores = rng.random((1, 2, 30)).astype(np.float32)
nan_scores[0, 0, [1, 2, 7]] = np.nan
nms("nms_nan_scores", random_boxes(1, 30), nan_scores, limit=10, iou=0.4,
    score_threshold=0.0)

# Refused: a bounded value feeding another node, too many boxes, too many
# slices to compare.
cases.add("bounded_value_consumed",
          [node("NonZero", ["x"], ["nz"]), node("Cast", ["nz"], ["y"], to=1)],
          {"x": np.ones((2, 2), np.float32)}, {"y": np.zeros(1, np.float32)},
          expect_exit=3,
          expect_error="input 'nz' comes from node 'NonZero#0' (NonZero), "
          "whose output length depends on the data")
cases.add("nms_too_many_boxes",
          [node("NonMaxSuppression", ["b", "s", "m"], ["y"])],
          {"b": random_boxes(1, 129), "s": np.ones((1, 1, 129), np.float32)},
          {"y": np.zeros((1, 3), np.int64)},
          initializers=[("m", np.array([5], np.int64))], expect_exit=3,
          expect_error="this node has 129 boxes")
cases.add("unique_too_large", [node("Unique", ["x"], ["y"])],
          {"x": np.zeros(5000, np.float32)}, {"y": np.zeros(1, np.float32)},
          expect_exit=3, expect_error="Unique over 5000 slices")
cases.add("length_name_taken",
          [node("NonZero", ["x"], ["y"]), node("Identity", ["x"], ["y:length"])],
          {"x": np.ones((2, 2), np.float32)},
          {"y": np.zeros(1, np.int64), "y:length": np.zeros(1, np.float32)},
          expect_exit=2,
          expect_error="output 'y' has a run-time length, and its length "
          "output's name 'y:length' is taken")
# An If whose branches compute NonZero: its result would lose the length.
branch = helper.make_graph(
    [node("NonZero", ["x"], ["b"])], "branch", [],
    [helper.make_tensor_value_info("b", onnx.TensorProto.INT64, None)])
cases.add("bounded_branch_output",
          [node("If", ["c"], ["y"], then_branch=branch, else_branch=branch)],
          {"c": np.array(True), "x": np.ones((2, 2), np.float32)},
          {"y": np.zeros(1, np.int64)}, expect_exit=3,
          expect_error="the body 'branch' output 'b' has a length that "
          "depends on the data")

# Not run: a NonZero with a symbolic batch, for --batch-sizes.
onnx.save(helper.make_model(helper.make_graph(
    [node("NonZero", ["x"], ["y"])], "dynamic_batch",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 5])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.INT64, None)]),
    opset_imports=[helper.make_opsetid("", 17)]),
    os.path.join(cases.outdir, "nonzero_dynamic_batch.onnx"))
cases.check()
