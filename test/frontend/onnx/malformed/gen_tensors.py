"""Tensors: data counts, types, sizes; external data containment.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import os

import numpy as np
from onnx import helper

from corpus_lib import T, vi, node, const, f32


def gen_tensors(w):
    y = [vi("y", T.FLOAT, None)]

    def init_case(rel, tensor, exit_code, message, why):
        w.simple(rel, [node("Add", ["x", tensor.name], ["y"], name="add")],
                 [vi("x", T.FLOAT, [1])], y, [tensor], exit_code, message, why)

    t = T(name="w", data_type=T.FLOAT, dims=[2, -3])
    init_case("initializer_negative_dim.onnx", t, 2,
              "tensor 'w' has a negative dimension -3", "dims [2, -3]")
    t = T(name="w", data_type=T.FLOAT, dims=[1 << 62, 1 << 62, 4])
    init_case("initializer_dims_overflow_int64.onnx", t, 2,
              "tensor 'w' is implausibly large",
              "dims whose product overflows int64")
    t = T(name="w", data_type=T.FLOAT, dims=[(1 << 63) - 1])
    init_case("initializer_dim_int64_max.onnx", t, 2,
              "tensor 'w' is implausibly large", "dims [INT64_MAX]")
    t = T(name="w", data_type=T.FLOAT, dims=[1 << 20, 1 << 20])
    init_case("initializer_2pow40_elements_no_data.onnx", t, 2,
              "tensor 'w' holds 0 values, its shape needs 1099511627776",
              "2^40 floats declared, no data at all")
    t = T(name="w", data_type=T.FLOAT, dims=[4], raw_data=b"\0" * 4)
    init_case("raw_data_too_short.onnx", t, 2,
              "tensor 'w' holds 4 bytes of data, its shape needs 16",
              "float[4] with 4 bytes of raw_data")
    t = T(name="w", data_type=T.FLOAT, dims=[1], raw_data=b"\0" * 5)
    init_case("raw_data_not_multiple.onnx", t, 2,
              "tensor 'w' holds 5 bytes of data, its shape needs 4",
              "float[1] with 5 bytes (not a multiple of the element size)")
    t = T(name="w", data_type=T.FLOAT, dims=[1000000], raw_data=b"\0" * 4)
    init_case("raw_data_million_floats_4_bytes.onnx", t, 2,
              "holds 4 bytes of data, its shape needs 4000000",
              "float[1000000] with 4 bytes (the onnx#8319 checker case)")
    t = T(name="w", data_type=T.FLOAT, dims=[2], raw_data=b"\0" * 64)
    init_case("raw_data_too_long.onnx", t, 2,
              "holds 64 bytes of data, its shape needs 8",
              "float[2] with 64 bytes")
    t = T(name="w", data_type=T.FLOAT, dims=[4], float_data=[1, 2, 3])
    init_case("float_data_count_mismatch.onnx", t, 2,
              "tensor 'w' holds 3 values, its shape needs 4",
              "float[4] with 3 float_data values")
    t = T(name="w", data_type=T.FLOAT, dims=[4], int64_data=[1, 2, 3, 4])
    init_case("float_tensor_in_int64_data.onnx", t, 2,
              "tensor 'w' holds 0 values, its shape needs 4",
              "float[4] whose values sit in int64_data (wrong field)")
    t = T(name="w", data_type=T.INT64, dims=[2, 2], int64_data=[1, 2, 3])
    w.simple("int64_data_count_mismatch.onnx",
             [node("Reshape", ["x", "w"], ["y"], name="r")],
             [vi("x", T.FLOAT, [4])], y, [t], 2,
             "tensor 'w' holds 3 values, its shape needs 4",
             "int64[2,2] with 3 values")
    t = T(name="w", data_type=T.FLOAT16, dims=[3], int32_data=[1, 2])
    w.simple("float16_int32_data_count_mismatch.onnx",
             [node("Add", ["x", "w"], ["y"], name="add")],
             [vi("x", T.FLOAT16, [3])], y, [t], 2,
             "tensor 'w' holds 2 values, its shape needs 3",
             "float16[3] with 2 int32_data values")
    t = T(name="w", data_type=T.DOUBLE, dims=[], double_data=[])
    w.simple("scalar_double_no_data.onnx",
             [node("Add", ["x", "w"], ["y"], name="add")],
             [vi("x", T.DOUBLE, [3])], y, [t], 2,
             "tensor 'w' holds 0 values, its shape needs 1",
             "a double scalar without a value")
    # Element types.
    t = T(name="w", data_type=T.UNDEFINED, dims=[1], raw_data=b"\0" * 4)
    init_case("initializer_type_undefined.onnx", t, 2,
              "tensor element type UNDEFINED (0) is not supported",
              "data_type 0 (UNDEFINED)")
    t = T(name="w", data_type=999, dims=[1], raw_data=b"\0" * 4)
    init_case("initializer_type_999.onnx", t, 2, "(999) is not supported",
              "data_type 999: no such ONNX type")
    t = T(name="w", data_type=T.STRING, dims=[2], string_data=[b"a", b"b"])
    w.simple("initializer_string.onnx",
             [node("Identity", ["w"], ["y"], name="id")], [],
             [vi("y", T.STRING, [2])], [t], 3,
             "tensor element type STRING (8) is not supported",
             "a valid STRING initializer: unsupported type (exit 3)")
    t = T(name="w", data_type=T.UINT8, dims=[2], raw_data=b"\1\2\3")
    w.simple("initializer_uint8.onnx",
             [node("Identity", ["w"], ["y"], name="id")], [],
             [vi("y", T.UINT8, [2])], [t], 2,
             "holds 3 bytes of data, its shape needs 2",
             "a UINT8 initializer with a byte too many")
    t = T(name="w", data_type=T.UINT64, dims=[2], uint64_data=[1])
    w.simple("initializer_uint64_count.onnx",
             [node("Identity", ["w"], ["y"], name="id")], [],
             [vi("y", T.UINT64, [2])], [t], 2,
             "holds 1 values, its shape needs 2",
             "a UINT64 initializer (uint64_data) with a value missing")
    w.simple("input_complex64.onnx",
             [node("Identity", ["x"], ["y"], name="id")],
             [vi("x", T.COMPLEX64, [2])], [vi("y", T.COMPLEX64, [2])], (), 3,
             "tensor element type COMPLEX64 (14) is not supported",
             "a valid COMPLEX64 input: unsupported type (exit 3)")
    w.simple("input_elem_type_negative.onnx",
             [node("Identity", ["x"], ["y"], name="id")],
             [vi("x", -5, [2])], y, (), 2,
             "tensor element type unknown (-5) is not supported",
             "elem_type -5")
    # Input shapes.
    w.simple("input_negative_dim.onnx",
             [node("Relu", ["x"], ["y"], name="relu")],
             [vi("x", T.FLOAT, [2, -3])], y, (), 2,
             "input 'x' has a negative dimension -3", "input dims [2, -3]")
    w.simple("input_dims_overflow_int64.onnx",
             [node("Relu", ["x"], ["y"], name="relu")],
             [vi("x", T.FLOAT, [1 << 62, 1 << 62])], y, (), 2,
             "implausibly large",
             "input dims [2^62, 2^62]: the element count overflows int64")
    w.simple("input_bytes_overflow_int64.onnx",
             [node("Relu", ["x"], ["y"], name="relu")],
             [vi("x", T.FLOAT, [1 << 62])], y, (), 2, "implausibly large",
             "input float[2^62]: 2^64 bytes, the byte size overflows int64")
    inp = vi("x", T.FLOAT, [2])
    inp.type.ClearField("tensor_type")
    inp.type.sequence_type.elem_type.tensor_type.elem_type = T.FLOAT
    w.simple("input_sequence_type.onnx",
             [node("Identity", ["x"], ["y"], name="id")], [inp], y, (), 2,
             "input 'x' is not a tensor", "a sequence-typed graph input")
    inp = helper.ValueInfoProto(name="x")
    w.simple("input_without_type.onnx",
             [node("Identity", ["x"], ["y"], name="id")], [inp], y, (), 2,
             "input 'x' is not a tensor", "a graph input with no type")
    w.simple("input_without_shape.onnx",
             [node("Relu", ["x"], ["y"], name="relu")],
             [vi("x", T.FLOAT, None)], y, (), 2,
             "input 'x' has no shape: give one with --input-shape x=DxDx...",
             "an input without a shape and no --input-shape")
    w.simple("symbolic_dim_without_input_shape.onnx",
             [node("Relu", ["x"], ["y"], name="relu")],
             [vi("x", T.FLOAT, ["N", 4])], y, (), 2,
             "input 'x' has symbolic dimension 0 ('N'): give its shape with "
             "--input-shape x=DxDx...", "dim_param without --input-shape")
    inp = vi("x", T.FLOAT, [2, 4])
    inp.type.tensor_type.shape.dim[1].Clear()
    w.simple("unknown_dim_without_input_shape.onnx",
             [node("Relu", ["x"], ["y"], name="relu")], [inp], y, (), 2,
             "input 'x' has symbolic dimension 1",
             "a dimension with neither dim_value nor dim_param")
    # --input-shape that disagrees with the model.
    sym = [vi("x", T.FLOAT, ["N", 5])]
    relu = [node("Relu", ["x"], ["y"], name="relu")]
    w.simple("input_shape_wrong_rank.onnx", relu, sym, y, (), 2,
             "--input-shape gives 1 dimensions for input 'x', the model has 2",
             "--input-shape x=2 for a rank-2 input",
             args=["--input-shape", "x=2"])
    w.simple("input_shape_fixed_dim_mismatch.onnx", relu, sym, y, (), 2,
             "--input-shape for 'x' gives dimension 1 as 4, the model fixes "
             "it at 5", "--input-shape x=3x4, the model fixes dim 1 at 5",
             args=["--input-shape", "x=3x4"])
    w.simple("input_shape_unknown_name.onnx", relu, sym, y, (), 2,
             "--input-shape names 'nosuch', which is not an input of the model",
             "--input-shape for a name the model does not have",
             args=["--input-shape", "x=3x5", "--input-shape", "nosuch=1"])
    w.simple("input_shape_names_initializer.onnx",
             [node("Add", ["x", "b"], ["y"], name="add")],
             [vi("x", T.FLOAT, [2]), vi("b", T.FLOAT, [2])], y,
             [const("b", np.ones(2, np.float32))], 2,
             "--input-shape names 'b', which is not an input of the model",
             "--input-shape for an initializer listed as an input",
             args=["--input-shape", "b=2"])
    w.simple("input_shape_overflow_int64.onnx", relu,
             [vi("x", T.FLOAT, ["N", "M"])], y, (), 2, "implausibly large",
             "--input-shape x=2^62x2^62: the element count overflows int64",
             args=["--input-shape", "x=4611686018427387904x4611686018427387904"])




def ext_tensor(name, dims, entries, dtype=T.FLOAT):
    t = T(name=name, data_type=dtype, dims=dims)
    t.data_location = T.EXTERNAL
    for k, v in entries:
        e = t.external_data.add()
        e.key = k
        e.value = v
    return t


def gen_external(w):
    """External data. Models live in OUTDIR/ext/ next to their data; a
    'secret' file sits outside that folder in OUTDIR/outside/."""
    weights = f32(4).tobytes()  # 16 bytes: [0, 1, 2, 3]
    w.side("ext/weights.bin", weights)
    w.side("ext/short.bin", weights[:12])
    w.side("outside/secret.bin", np.full(4, 42, np.float32).tobytes())
    os.makedirs(w.path("ext/sub"), exist_ok=True)
    os.makedirs(w.path("ext/a_directory"), exist_ok=True)
    # A symbolic link to a file outside the folder, and a symbolic link to
    # the folder outside, used as a parent component.
    os.symlink("../outside/secret.bin", w.path("ext/link_to_secret.bin"))
    os.symlink("../outside", w.path("ext/linkdir"))
    # A hard link to the outside file: a regular file inside the folder that
    # is also the outside one (onnx GHSA-cmw6-hcpp-c6jp).
    os.link(w.path("outside/secret.bin"), w.path("ext/hardlink_to_secret.bin"))
    os.mkfifo(w.path("ext/fifo.bin"))
    y = [vi("y", T.FLOAT, None)]

    def ext(rel, entries, message, why, dims=(4,)):
        t = ext_tensor("w", list(dims), entries)
        w.simple("ext/" + rel, [node("Relu", ["w"], ["y"], name="relu")], [],
                 y, [t], 2, message, why)

    ext("ext_absolute_path.onnx", [("location", "/etc/passwd")],
        "external data path '/etc/passwd' is absolute",
        "location is an absolute path")
    ext("ext_dotdot.onnx", [("location", "../outside/secret.bin")],
        "external data path '../outside/secret.bin' leaves the model's folder",
        "location starts with '..'")
    ext("ext_dotdot_inside.onnx", [("location", "sub/../../outside/secret.bin")],
        "leaves the model's folder", "'..' after a real directory (a/../../b)")
    ext("ext_symlink_file.onnx", [("location", "link_to_secret.bin")],
        "symbolic links are refused",
        "location is a symbolic link to a file outside the folder")
    ext("ext_symlink_parent_dir.onnx", [("location", "linkdir/secret.bin")],
        "symbolic links are refused",
        "a parent component of location is a symbolic link to a folder "
        "outside (onnx CVE-2026-27489 class)")
    ext("ext_hardlink.onnx", [("location", "hardlink_to_secret.bin")],
        "hard link",
        "location is a hard link (st_nlink 2) to a file outside the folder "
        "(onnx GHSA-cmw6-hcpp-c6jp)")
    ext("ext_past_end.onnx", [("location", "weights.bin"), ("offset", "8"),
                              ("length", "16")],
        "external data range [8, +16) lies outside 'weights.bin' (16 bytes)",
        "offset + length past the end of the file")
    ext("ext_offset_past_end.onnx", [("location", "weights.bin"),
                                     ("offset", "1000")],
        "lies outside 'weights.bin'", "offset 1000 in a 16-byte file")
    ext("ext_length_huge.onnx", [("location", "weights.bin"),
                                 ("length", str((1 << 64) - 1))],
        "lies outside 'weights.bin'", "length 2^64-1 (multi-exabyte)")
    ext("ext_offset_plus_length_wraps.onnx",
        [("location", "weights.bin"), ("offset", "8"),
         ("length", str((1 << 64) - 4))],
        "lies outside 'weights.bin'", "offset + length wraps around 2^64")
    ext("ext_offset_not_a_number.onnx", [("location", "weights.bin"),
                                         ("offset", "12abc")],
        "external data offset '12abc' is not a number", "offset '12abc'")
    ext("ext_length_empty.onnx", [("location", "weights.bin"),
                                  ("length", "")],
        "external data length '' is not a number", "length ''")
    ext("ext_offset_negative.onnx", [("location", "weights.bin"),
                                     ("offset", "-1")],
        "offset '-1'",
        "offset '-1': must be reported as such, not as 18446744073709551615")
    ext("ext_missing_file.onnx", [("location", "nope.bin")],
        "external data file 'nope.bin' does not exist",
        "location names a missing file")
    ext("ext_directory.onnx", [("location", "a_directory")],
        "external data file 'a_directory' is not a regular file",
        "location names a directory")
    ext("ext_fifo.onnx", [("location", "fifo.bin")],
        "external data file 'fifo.bin' is not a regular file",
        "location names a FIFO (reading it would block)")
    ext("ext_no_location.onnx", [("offset", "0")],
        "external data without a location", "no location key")
    ext("ext_size_mismatch.onnx", [("location", "short.bin")],
        "tensor 'w' holds 12 bytes of data, its shape needs 16",
        "the whole file is 12 bytes, float[4] needs 16")
    t = ext_tensor("t", [4], [("location", "../outside/secret.bin")])
    w.simple("ext/ext_constant_node_dotdot.onnx",
             [node("Constant", [], ["y"], name="c", value=t)], [], y, (), 2,
             "leaves the model's folder",
             "a Constant node's tensor with external data outside the folder")
