"""RoiAlign.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
from corpus_lib import T, vi, node


def gen_roialign(w):
    y = [vi("y", T.FLOAT, None)]
    x = vi("x", T.FLOAT, [1, 2, 8, 8])
    rois = vi("rois", T.FLOAT, [3, 4])
    batch = vi("batch", T.INT64, [3])

    def case(rel, message, why, inputs=(x, rois, batch), exit_code=2,
             **attrs):
        w.simple(rel, [node("RoiAlign", ["x", "rois", "batch"], ["y"],
                            name="roi", **attrs)], list(inputs), y, (),
                 exit_code, message, why, opset=16)

    case("roialign_x_rank3.onnx", "X must be a floating-point [N, C, H, W]",
         "X of rank 3", inputs=(vi("x", T.FLOAT, [2, 8, 8]), rois, batch))
    case("roialign_rois_shape.onnx", "rois must be [num_rois, 4]",
         "rois [3, 5]", inputs=(x, vi("rois", T.FLOAT, [3, 5]), batch))
    case("roialign_batch_count.onnx",
         "batch_indices must be [num_rois] integers",
         "2 batch indices for 3 regions",
         inputs=(x, rois, vi("batch", T.INT64, [2])))
    case("roialign_bad_mode.onnx", "mode must be avg or max", "mode 'sum'",
         mode="sum")
    case("roialign_bad_transform.onnx",
         "unknown coordinate_transformation_mode 'corners'",
         "an unknown coordinate mode",
         coordinate_transformation_mode="corners")
    case("roialign_huge_output.onnx",
         "output_height and output_width must be in [1, 1024]",
         "output_height 2^31", output_height=1 << 31)
    case("roialign_negative_ratio.onnx", "sampling_ratio in [0, 64]",
         "sampling_ratio -1", sampling_ratio=-1)
    case("roialign_adaptive_runtime_rois.onnx",
         "rois (sampling_ratio 0 sizes each region's samples) must be a "
         "constant", "adaptive sampling on rois given at run time (exit 3; "
         "kilnc run binds them)", exit_code=3)
