#!/usr/bin/python3
"""Writes the malformed-model robustness corpus of Kiln's ONNX importer.

    /usr/bin/python3 make_corpus.py OUTDIR

Every file written is malformed or hostile; `kilnc compile FILE --emit=mlir`
must reject it with a documented exit code (2 invalid model, 3 something
Kiln cannot compile yet) and a located message. OUTDIR/expectations.json
maps each model (a path relative to OUTDIR) to

    {"exit": 2 or 3, "message": "substring the error must contain",
     "args": [extra kilnc arguments], "why": "what is wrong"}

check_corpus.py runs kilnc on every entry. The generator is deterministic:
fixed seeds, no timestamps, the same bytes on every run. Side files
(external data, a symbolic link, a hard link, a FIFO, a directory named like
a model) are created here too; OUTDIR is emptied first.

The crash classes covered follow the project's reliability notes (ONNX
sections): truncation, wrong wire types, size and overflow checks, data
counts, attributes used as divisors/strides, constant indices, graph
structure (cycles, undefined and duplicate values), external-data
containment (absolute, '..', symbolic links in any component, hard links,
ranges past the end), nesting depth and unsupported features.
"""
import json
import os
import shutil
import sys

import numpy as np
from onnx import AttributeProto, TensorProto, helper, numpy_helper

T = TensorProto
vi = helper.make_tensor_value_info
node = helper.make_node

CASES = []  # (relative path, exit, message, args, why)


def case(path, exit_code, message, why, args=()):
    CASES.append((path, exit_code, message, list(args), why))


# ---------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------

def varint(n):
    n &= (1 << 64) - 1  # negative ints are 10-byte two's complement varints
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, wire, payload):
    """One protobuf field: wire 0 (varint int) or 2 (bytes/str/message)."""
    key = varint((num << 3) | wire)
    if wire == 0:
        return key + varint(payload)
    if isinstance(payload, str):
        payload = payload.encode()
    return key + varint(len(payload)) + payload


def make_model(nodes, inputs, outputs, inits=(), opset=13, name="g",
               extra_opsets=(), sparse=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits),
                              sparse_initializer=list(sparse))
    opsets = [helper.make_opsetid("", opset)] if opset is not None else []
    opsets += [helper.make_opsetid(d, v) for d, v in extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets,
                              producer_name="kiln-malformed-corpus")
    model.ir_version = 8
    return model


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def f32(*shape):
    return np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)


class Writer:
    def __init__(self, out):
        self.out = out

    def path(self, rel):
        return os.path.join(self.out, rel)

    def bytes(self, rel, data, exit_code, message, why, args=()):
        full = self.path(rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
        case(rel, exit_code, message, why, args)

    def model(self, rel, model, exit_code, message, why, args=()):
        self.bytes(rel, model.SerializeToString(), exit_code, message, why,
                   args)

    def simple(self, rel, nodes, inputs, outputs, inits=(), exit_code=2,
               message="", why="", opset=13, args=()):
        self.model(rel, make_model(nodes, inputs, outputs, inits, opset),
                   exit_code, message, why, args)

    def side(self, rel, data):
        full = self.path(rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)


# A valid model used as the base of byte-level damage: one input, a 16x16
# float weight (raw_data, 1 KiB) and a MatMul.
def base_model():
    w = numpy_helper.from_array(
        np.random.RandomState(7).randn(16, 16).astype(np.float32), "weight")
    return make_model(
        [node("MatMul", ["x", "weight"], ["y"], name="mm")],
        [vi("x", T.FLOAT, [2, 16])], [vi("y", T.FLOAT, [2, 16])], [w])


PARSE = "protobuf parsing failed"
MARKER = ".kiln-malformed-corpus"


def gen_bytes(w):
    good = base_model().SerializeToString()
    weight = np.random.RandomState(7).randn(16, 16).astype(np.float32)
    raw_at = good.index(weight.tobytes())

    w.bytes("empty_file.onnx", b"", 2, "the model has no graph",
            "zero bytes (parses as an empty ModelProto)")
    w.bytes("truncated_header_1byte.onnx", good[:1], 2, PARSE,
            "cut after the first tag byte (ir_version varint missing)")
    w.bytes("truncated_header_3bytes.onnx", good[:3], 2, PARSE,
            "cut inside the header")
    w.bytes("truncated_mid_initializer.onnx", good[:raw_at + 512], 2, PARSE,
            "cut in the middle of the initializer's raw_data")
    w.bytes("truncated_initializer_start.onnx", good[:raw_at], 2, PARSE,
            "cut just before the initializer's raw_data")
    w.bytes("truncated_last_byte.onnx", good[:-1], 2, PARSE,
            "the last byte is missing")
    w.bytes("truncated_half.onnx", good[:len(good) // 2], 2, PARSE,
            "only the first half of the file")
    w.bytes("trailing_garbage.onnx", good + b"\xff\xff\xff\xff", 2, PARSE,
            "a valid model followed by bytes that are no protobuf field")
    rng = np.random.RandomState(1234)
    w.bytes("random_bytes_4k.onnx", rng.bytes(4096), 2, PARSE,
            "4 KiB of random bytes")
    w.bytes("random_bytes_tiny.onnx", bytes([0xFA, 0x13, 0x07, 0xEE]), 2,
            PARSE, "4 random bytes")
    w.bytes("all_ff.onnx", b"\xff" * 64, 2, PARSE, "bytes 0xff (wire type 7)")
    # A varint length field that claims 2^63 bytes.
    w.bytes("length_prefix_huge.onnx",
            varint((7 << 3) | 2) + varint((1 << 63) - 1) + b"\x0a\x00", 2,
            PARSE, "graph field whose length prefix is 2^63-1")
    # Overlong varint (11 bytes).
    w.bytes("varint_overlong.onnx", b"\x08" + b"\xff" * 10 + b"\x01", 2,
            PARSE, "ir_version varint longer than 10 bytes")
    # The ONNX text syntax is not the binary format.
    w.bytes("text_format.onnx",
            b'<ir_version: 8, opset_import: ["" : 13]>\n'
            b'g (float[2] x) => (float[2] y) { y = Relu(x) }\n', 2, PARSE,
            "ONNX textual syntax instead of protobuf")
    w.bytes("graph_proto_not_model.onnx",
            base_model().graph.SerializeToString(), 2,
            "the model has no graph",
            "a serialized GraphProto, not a ModelProto")
    t = numpy_helper.from_array(f32(4), "t")
    w.bytes("tensor_proto_not_model.onnx", t.SerializeToString(), 2, PARSE,
            "a serialized TensorProto, not a ModelProto")


def gen_model_level(w):
    # No graph, no opset.
    m = base_model()
    m.ClearField("graph")
    w.model("no_graph.onnx", m, 2, "the model has no graph",
            "ModelProto without a graph")
    m = base_model()
    g = m.graph.SerializeToString()
    raw = field(1, 0, 8) + field(8, 2, field(2, 0, 13)) + field(7, 0, 5)
    w.bytes("graph_field_wrong_wire_type.onnx", raw, 2,
            "the model has no graph", "field 7 (graph) encoded as a varint")
    raw = field(1, 0, 8) + field(8, 0, 13) + field(7, 2, g)
    w.bytes("opset_field_wrong_wire_type.onnx", raw, 2,
            "imports no version of the default ONNX operator set",
            "field 8 (opset_import) encoded as a varint")
    m = base_model()
    del m.opset_import[:]
    w.model("no_opset_import.onnx", m, 2,
            "imports no version of the default ONNX operator set",
            "no opset_import at all")
    m = make_model([node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [2])],
                   [vi("y", T.FLOAT, [2])], opset=None,
                   extra_opsets=[("com.example", 1)])
    w.model("opset_only_custom_domain.onnx", m, 2,
            "imports no version of the default ONNX operator set",
            "only a custom domain is imported")
    # Newer than Kiln knows: unsupported (exit 3). Kiln accepts every opset
    # from 1, so "too old" is only 0 or negative: no such ONNX opset exists,
    # an invalid model (exit 2), not one Kiln "cannot compile yet".
    for rel, v, why in [("opset_too_new.onnx", 99, "opset 99"),
                        ("opset_huge.onnx", 1 << 62, "opset 2^62")]:
        m = base_model()
        m.opset_import[0].version = v
        w.model(rel, m, 3, "the model uses ONNX opset %d; Kiln supports "
                "opsets" % v, why)
    for rel, v in [("opset_zero.onnx", 0), ("opset_negative.onnx", -1)]:
        m = base_model()
        m.opset_import[0].version = v
        w.model(rel, m, 2, "opset %d" % v,
                "opset %d: no such ONNX opset exists (invalid, not 'not "
                "supported yet')" % v)

    # Node fields with the wrong wire type: op_type (4) as a varint leaves
    # the op type empty; input (1) as a varint drops the input.
    n = field(1, 2, "x") + field(2, 2, "y") + field(3, 2, "n0") + field(4, 0, 7)
    gb = field(1, 2, n) + field(2, 2, "g") + \
        field(11, 2, vi("x", T.FLOAT, [2]).SerializeToString()) + \
        field(12, 2, vi("y", T.FLOAT, [2]).SerializeToString())
    raw = field(1, 0, 8) + field(8, 2, field(2, 0, 13)) + field(7, 2, gb)
    w.bytes("node_op_type_wrong_wire_type.onnx", raw, 3,
            "unsupported operator(s)",
            "NodeProto.op_type encoded as a varint: the node has no op type")
    n = field(1, 0, 1) + field(2, 2, "y") + field(3, 2, "relu") + \
        field(4, 2, "Relu")
    gb = field(1, 2, n) + field(2, 2, "g") + \
        field(11, 2, vi("x", T.FLOAT, [2]).SerializeToString()) + \
        field(12, 2, vi("y", T.FLOAT, [2]).SerializeToString())
    raw = field(1, 0, 8) + field(8, 2, field(2, 0, 13)) + field(7, 2, gb)
    w.bytes("node_input_wrong_wire_type.onnx", raw, 2,
            "missing input #0",
            "NodeProto.input encoded as a varint: Relu has no input")


def nested_if_graph(depth):
    """GraphProto bytes: an If node whose then_branch holds an If ... depth
    levels deep (built by hand: 3 protobuf messages per level)."""
    g = field(2, 2, "leaf")
    for i in range(depth):
        attr = field(1, 2, "then_branch") + field(20, 0, 5) + field(6, 2, g)
        n = field(1, 2, "c") + field(2, 2, "o%d" % i) + \
            field(3, 2, "if%d" % i) + field(4, 2, "If") + field(5, 2, attr)
        g = field(1, 2, n) + field(2, 2, "g%d" % i)
    return g


def gen_nesting(w):
    head = field(1, 0, 8) + field(8, 2, field(2, 0, 13))
    io = field(11, 2, vi("c", T.BOOL, []).SerializeToString()) + \
        field(12, 2, vi("y", T.FLOAT, [1]).SerializeToString())
    w.bytes("nested_if_150_levels.onnx",
            head + field(7, 2, nested_if_graph(150) + io), 2, PARSE,
            "If.then_branch graphs nested 150 levels (450 messages) deep")
    w.bytes("nested_if_3000_levels.onnx",
            head + field(7, 2, nested_if_graph(3000) + io), 2, PARSE,
            "If.then_branch graphs nested 3000 levels deep (stack bomb)")
    w.bytes("nested_if_3_levels.onnx",
            head + field(7, 2, nested_if_graph(3) + io), 3,
            "If (domain ai.onnx, opset 13): 'if2'",
            "a shallow If: valid, but control flow is not supported")
    # TypeProto.sequence_type nested 1000 deep on a graph input.
    t = field(1, 2, field(1, 0, T.FLOAT))  # TypeProto{tensor_type{FLOAT}}
    for _ in range(1000):
        t = field(4, 2, field(1, 2, t))  # TypeProto{sequence_type{elem}}
    inp = field(1, 2, "x") + field(2, 2, t)
    gb = field(1, 2, field(1, 2, "x") + field(2, 2, "y") +
               field(4, 2, "Identity")) + field(2, 2, "g") + \
        field(11, 2, inp) + \
        field(12, 2, vi("y", T.FLOAT, [1]).SerializeToString())
    w.bytes("nested_sequence_type_1000.onnx", head + field(7, 2, gb), 2, PARSE,
            "an input type nested 1000 sequence_types deep")


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
    t = T(name="w", data_type=T.UINT8, dims=[2], raw_data=b"\1\2")
    w.simple("initializer_uint8.onnx",
             [node("Identity", ["w"], ["y"], name="id")], [],
             [vi("y", T.UINT8, [2])], [t], 3,
             "tensor element type UINT8 (2) is not supported",
             "a valid UINT8 initializer: unsupported type (exit 3)")
    w.simple("input_uint8.onnx", [node("Identity", ["x"], ["y"], name="id")],
             [vi("x", T.UINT8, [2])], [vi("y", T.UINT8, [2])], (), 3,
             "tensor element type UINT8 (2) is not supported",
             "a valid UINT8 input: unsupported type (exit 3)")
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


def gen_structure(w):
    x = [vi("x", T.FLOAT, [2])]
    y = [vi("y", T.FLOAT, None)]
    w.simple("cycle_two_nodes.onnx",
             [node("Add", ["x", "b"], ["a"], name="n1"),
              node("Relu", ["a"], ["b"], name="n2"),
              node("Relu", ["a"], ["y"], name="n3")], x, y, (), 2,
             "the graph has a cycle through node 'n1'",
             "n1 reads n2's output, n2 reads n1's")
    w.simple("cycle_self_loop.onnx",
             [node("Add", ["x", "a"], ["a"], name="self"),
              node("Relu", ["a"], ["y"], name="out")], x, y, (), 2,
             "the graph has a cycle through node 'self'",
             "a node that reads its own output")
    w.simple("undefined_value.onnx",
             [node("Add", ["x", "ghost"], ["y"], name="add")], x, y, (), 2,
             "node 'add' (Add) uses 'ghost', which no node, input or "
             "initializer defines", "a node input nobody defines")
    w.simple("missing_initializer.onnx",
             [node("Conv", ["x", "conv.weight"], ["y"], name="conv")],
             [vi("x", T.FLOAT, [1, 3, 8, 8])], y, (), 2,
             "uses 'conv.weight', which no node, input or initializer defines",
             "Conv weight named but absent from the initializers")
    w.simple("duplicate_node_output.onnx",
             [node("Relu", ["x"], ["h"], name="a"),
              node("Neg", ["x"], ["h"], name="b"),
              node("Relu", ["h"], ["y"], name="c")], x, y, (), 2,
             "value 'h' is defined more than once",
             "two nodes write the same output name")
    w.simple("duplicate_output_within_node.onnx",
             [node("Split", ["x"], ["h", "h"], name="split", axis=0),
              node("Relu", ["h"], ["y"], name="c")], x, y, (), 2,
             "value 'h' is defined more than once",
             "one node lists the same output twice")
    w.simple("node_output_shadows_input.onnx",
             [node("Relu", ["x"], ["x"], name="a"),
              node("Relu", ["x"], ["y"], name="b")], x, y, (), 2,
             "value 'x' is defined more than once",
             "a node output reuses a graph input's name")
    w.simple("node_output_shadows_initializer.onnx",
             [node("Relu", ["x"], ["b"], name="a"),
              node("Add", ["x", "b"], ["y"], name="b2")], x, y,
             [const("b", np.ones(2, np.float32))], 2,
             "value 'b' is defined more than once",
             "a node output reuses an initializer's name")
    w.simple("duplicate_initializer.onnx",
             [node("Add", ["x", "b"], ["y"], name="add")], x, y,
             [const("b", np.ones(2, np.float32)),
              const("b", np.full(2, 7, np.float32))], 2,
             "value 'b' is defined more than once",
             "two initializers named 'b' with different values")
    w.simple("duplicate_graph_input.onnx",
             [node("Add", ["x", "x"], ["y"], name="add")],
             [vi("x", T.FLOAT, [2]), vi("x", T.FLOAT, [3])], y, (), 2,
             "value 'x' is defined more than once",
             "two graph inputs named 'x' with different shapes")
    w.simple("graph_output_not_computed.onnx",
             [node("Relu", ["x"], ["h"], name="relu")], x,
             [vi("z", T.FLOAT, [2])], (), 2,
             "output 'z' is not computed by the graph",
             "the graph output names a value nobody computes")
    w.simple("graph_output_empty_name.onnx",
             [node("Relu", ["x"], ["h"], name="relu")], x,
             [vi("", T.FLOAT, [2])], (), 2,
             "output '' is not computed by the graph",
             "a graph output with an empty name")
    w.simple("graph_output_type_mismatch.onnx",
             [node("Relu", ["x"], ["y"], name="relu")], x,
             [vi("y", T.INT64, [7])], (), 2, "output 'y'",
             "the graph output is declared int64[7], the graph computes "
             "float[2]")
    w.simple("graph_without_outputs.onnx",
             [node("Relu", ["x"], ["h"], name="relu")], x, [], (), 2,
             "the graph has no outputs", "no graph outputs")
    sp = helper.make_sparse_tensor(
        numpy_helper.from_array(np.array([5.0], np.float32), "sw"),
        numpy_helper.from_array(np.array([1], np.int64), "sw_idx"), [4])
    m = make_model([node("Add", ["x4", "sw"], ["y"], name="add")],
                   [vi("x4", T.FLOAT, [4])], y, sparse=[sp])
    w.model("sparse_initializer.onnx", m, 3, "sparse",
            "a valid sparse_initializer: unsupported, must not be reported "
            "as an undefined value")
    # A node name with invalid UTF-8 (names are opaque bytes) and an error.
    # "mm\u00ff" is 4 bytes of UTF-8; swap them for 4 bytes that are not.
    n = node("MatMul", ["a", "b"], ["y"], name="mm\u00ff")
    m = make_model([n], [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [4, 2])],
                   y)
    data = m.SerializeToString()
    assert data.count("mm\u00ff".encode()) == 1
    data = data.replace("mm\u00ff".encode(), b"mm\xff\xfe")
    w.bytes("invalid_utf8_node_name.onnx", data, 2,
            "contracting dimensions differ: lhs has 3, rhs has 4",
            "a node name that is not UTF-8, on a shape error")


def gen_operators(w):
    y = [vi("y", T.FLOAT, None)]
    w.simple("unsupported_operators.onnx",
             [node("NonMaxSuppression", ["x", "x"], ["a"], name="nms"),
              node("Loop", ["", ""], ["b"], name="loop1"),
              node("Loop", ["", ""], ["c"], name="loop2"),
              node("Relu", ["x"], ["y"], name="relu")],
             [vi("x", T.FLOAT, [2])], y, (), 3,
             "the model uses 2 unsupported operator(s) in 3 node(s):\n"
             "  Loop (domain ai.onnx, opset 13): 'loop1', 'loop2'\n"
             "  NonMaxSuppression (domain ai.onnx, opset 13): 'nms'",
             "two unsupported operators, listed with their nodes")
    n = node("FancyOp", ["x"], ["y"], name="fancy", domain="com.example")
    m = make_model([n], [vi("x", T.FLOAT, [2])], y,
                   extra_opsets=[("com.example", 1)])
    w.model("unsupported_custom_domain.onnx", m, 3,
            "FancyOp (domain com.example, opset 13): 'fancy'",
            "an operator from a custom domain")
    w.simple("op_type_empty.onnx", [node("", ["x"], ["y"], name="nameless")],
             [vi("x", T.FLOAT, [2])], y, (), 3,
             "(domain ai.onnx, opset 13): 'nameless'", "op_type is empty")
    w.simple("op_newer_than_opset.onnx",
             [node("LayerNormalization", ["x", "s"], ["y"], name="ln")],
             [vi("x", T.FLOAT, [2, 4])], y,
             [const("s", np.ones(4, np.float32))], 3,
             "LayerNormalization (domain ai.onnx, opset 13): 'ln'",
             "LayerNormalization (opset 17) in an opset-13 model")

    # Conv.
    X = [vi("x", T.FLOAT, [1, 4, 8, 8])]
    W = const("w", np.ones((8, 4, 3, 3), np.float32))

    def conv(rel, message, why, exit_code=2, inputs=X, weight=W, **attrs):
        w.simple(rel, [node("Conv", ["x", "w"], ["y"], name="conv", **attrs)],
                 inputs, y, [weight], exit_code, message, why)

    conv("conv_negative_pads.onnx",
         "expects every 'pads' value to be non-negative", "pads [-1,0,0,0]",
         pads=[-1, 0, 0, 0])
    conv("conv_zero_stride.onnx", "expects every 'strides' value to be "
         "positive", "strides [0, 1] (a divisor)", strides=[0, 1])
    conv("conv_negative_stride.onnx", "expects every 'strides' value to be "
         "positive", "strides [-1, 1]", strides=[-1, 1])
    conv("conv_zero_dilation.onnx", "expects every 'dilations' value to be "
         "positive", "dilations [1, 0]", dilations=[1, 0])
    conv("conv_huge_dilation.onnx", "does not fit spatial dimension 2",
         "dilations [2^62, 1]: the window span overflows int64",
         dilations=[1 << 62, 1])
    conv("conv_huge_pads.onnx", "does not fit spatial dimension",
         "pads [INT64_MAX, 0, INT64_MAX, 0]: the padded size overflows",
         pads=[(1 << 63) - 1, 0, (1 << 63) - 1, 0])
    conv("conv_same_upper_huge_stride.onnx", "strides must be positive",
         "auto_pad SAME_UPPER with stride INT64_MAX then 0",
         auto_pad="SAME_UPPER", strides=[(1 << 63) - 1, 0])
    conv("conv_group_not_dividing.onnx",
         "input channels (4) and output channels (8) must be divisible by "
         "groups (3)", "group 3 with 4 input channels", group=3)
    conv("conv_group_zero.onnx", "expects a positive group count, got 0",
         "group 0 (a divisor)", group=0)
    conv("conv_group_negative.onnx", "expects a positive group count, got -4",
         "group -4", group=-4)
    conv("conv_channel_mismatch.onnx",
         "weight expects 3 input channels, input has 4",
         "W has 3 input channels, X has 4",
         weight=const("w", np.ones((8, 3, 3, 3), np.float32)))
    conv("conv_kernel_larger_than_input.onnx",
         "window of size 9 (dilation 1) does not fit spatial dimension 2",
         "a 9x9 kernel on an 8x8 input",
         weight=const("w", np.ones((8, 4, 9, 9), np.float32)))
    conv("conv_kernel_shape_disagrees_with_weight.onnx", "kernel_shape",
         "kernel_shape [5,5] but W is 3x3: the attribute is silently ignored",
         kernel_shape=[5, 5])
    conv("conv_pads_wrong_count.onnx",
         "kernel_shape, strides, dilations and pads must match the 2 spatial "
         "dimension(s)", "3 pads for a 2-D conv", pads=[1, 1, 1])
    conv("conv_auto_pad_unknown.onnx", "unknown auto_pad 'WRONG'",
         "auto_pad 'WRONG'", auto_pad="WRONG")
    conv("conv_weight_rank_mismatch.onnx", "W must have the rank of X",
         "W rank 3, X rank 4",
         weight=const("w", np.ones((8, 4, 3), np.float32)))
    conv("conv_rank1_input.onnx",
         "only 1-D and 2-D windows are supported, the input has rank 1",
         "Conv on rank-1 X and W", inputs=[vi("x", T.FLOAT, [8])],
         weight=const("w", np.ones(3, np.float32)))
    conv("conv_scalar_input.onnx",
         "only 1-D and 2-D windows are supported, the input has rank 0",
         "Conv on scalar X and W", inputs=[vi("x", T.FLOAT, [])],
         weight=const("w", np.ones((), np.float32)))
    conv("conv_3d.onnx", "only 1-D and 2-D windows are supported", 
         "a valid 3-D Conv: not supported yet (exit 3)", exit_code=3,
         inputs=[vi("x", T.FLOAT, [1, 4, 8, 8, 8])],
         weight=const("w", np.ones((8, 4, 3, 3, 3), np.float32)))
    conv("conv_strides_wrong_type.onnx",
         "attribute 'strides' must be a list of integers",
         "strides given as FLOATS", strides=[1.0, 1.0])
    w.simple("conv_missing_weight_input.onnx",
             [node("Conv", ["x"], ["y"], name="conv")], X, y, (), 2,
             "node 'conv' (Conv): missing input #1 (W)",
             "Conv with only its X input")
    w.simple("conv_empty_weight_name.onnx",
             [node("Conv", ["x", ""], ["y"], name="conv")], X, y, (), 2,
             "node 'conv' (Conv): missing input #1 (W)",
             "Conv whose W input is the empty (omitted) name")

    # Pooling.
    P = [vi("x", T.FLOAT, [1, 2, 6, 6])]

    def pool(rel, message, why, op="MaxPool", **attrs):
        w.simple(rel, [node(op, ["x"], ["y"], name="pool", **attrs)], P, y, (),
                 2, message, why)

    pool("maxpool_missing_kernel_shape.onnx",
         "missing attribute 'kernel_shape'", "MaxPool without kernel_shape")
    pool("maxpool_kernel_zero.onnx",
         "expects every 'kernel_shape' value to be positive",
         "kernel_shape [0, 2]", kernel_shape=[0, 2])
    pool("maxpool_kernel_int64_max.onnx", "does not fit spatial dimension 2",
         "kernel_shape [INT64_MAX, 2]", kernel_shape=[(1 << 63) - 1, 2])
    pool("maxpool_pads_cover_window.onnx",
         "padding of spatial dimension 2 must be smaller than the window",
         "pads as large as the window", kernel_shape=[2, 2],
         pads=[2, 0, 0, 0])
    pool("maxpool_same_upper_int64_max_stride.onnx",
         "window of size",
         "SAME_UPPER with stride INT64_MAX and kernel INT64_MAX",
         kernel_shape=[(1 << 63) - 1, 2], strides=[(1 << 63) - 1, 1],
         auto_pad="SAME_UPPER")
    pool("avgpool_negative_stride.onnx",
         "expects every 'strides' value to be positive", "strides [1, -2]",
         op="AveragePool", kernel_shape=[2, 2], strides=[1, -2])
    pool("maxpool_kernel_shape_wrong_type.onnx",
         "attribute 'kernel_shape' must be a list of integers",
         "kernel_shape given as a STRING", kernel_shape="2x2")
    w.simple("global_pool_rank2.onnx",
             [node("GlobalAveragePool", ["x"], ["y"], name="gap")],
             [vi("x", T.FLOAT, [2, 3])], y, (), 2,
             "expects input of rank >= 3", "GlobalAveragePool on rank 2")

    # Elementwise and contractions.
    w.simple("add_shape_mismatch.onnx",
             [node("Add", ["a", "b"], ["y"], name="add")],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [4, 3])], y, (), 2,
             "operand shapes 2x3 and 4x3 are not broadcast-compatible",
             "Add of 2x3 and 4x3")
    w.simple("add_dtype_mismatch.onnx",
             [node("Add", ["a", "b"], ["y"], name="add")],
             [vi("a", T.FLOAT, [2]), vi("b", T.INT64, [2])], y, (), 2,
             "to have one element type", "Add of float and int64")
    w.simple("add_missing_input.onnx",
             [node("Add", ["a"], ["y"], name="add")],
             [vi("a", T.FLOAT, [2])], y, (), 2,
             "node 'add' (Add): missing input #1 (B)", "Add with one input")
    w.simple("where_shape_mismatch.onnx",
             [node("Where", ["c", "a", "b"], ["y"], name="where")],
             [vi("c", T.BOOL, [3]), vi("a", T.FLOAT, [2]),
              vi("b", T.FLOAT, [2])], y, (), 2,
             "are not broadcast-compatible", "Where with a 3-element mask")
    w.simple("matmul_shape_mismatch.onnx",
             [node("MatMul", ["a", "b"], ["y"], name="mm")],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [4, 5])], y, (), 2,
             "node 'mm': contracting dimensions differ: lhs has 3, rhs has 4",
             "MatMul 2x3 by 4x5")
    w.simple("matmul_scalar.onnx",
             [node("MatMul", ["a", "b"], ["y"], name="mm")],
             [vi("a", T.FLOAT, []), vi("b", T.FLOAT, [2, 2])], y, (), 2,
             "MatMul operands must have rank >= 1", "MatMul of a scalar")
    w.simple("matmul_batch_mismatch.onnx",
             [node("MatMul", ["a", "b"], ["y"], name="mm")],
             [vi("a", T.FLOAT, [3, 2, 4]), vi("b", T.FLOAT, [5, 4, 2])], y,
             (), 2, "batch dimensions 3 and 5 are not broadcast-compatible",
             "MatMul batch 3 vs 5")
    w.simple("gemm_shape_mismatch.onnx",
             [node("Gemm", ["a", "b"], ["y"], name="gemm", transB=1)],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [4, 5])], y, (), 2,
             "contracting dimensions differ: op(A) has 3, op(B) has 5",
             "Gemm 2x3 by (4x5)^T")
    w.simple("gemm_rank3.onnx",
             [node("Gemm", ["a", "b"], ["y"], name="gemm")],
             [vi("a", T.FLOAT, [2, 3, 1]), vi("b", T.FLOAT, [3, 5])], y, (),
             2, "expects A of rank 2, got rank 3", "Gemm on a rank-3 A")
    w.simple("gemm_bias_not_broadcastable.onnx",
             [node("Gemm", ["a", "b", "c"], ["y"], name="gemm")],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3, 5]),
              vi("c", T.FLOAT, [4])], y, (), 2,
             "C of shape 4 does not broadcast to the result shape 2x5",
             "Gemm with a C of 4 for a 2x5 result")
    w.simple("gemm_alpha_wrong_type.onnx",
             [node("Gemm", ["a", "b"], ["y"], name="gemm", alpha=2)],
             [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3, 5])], y, (), 2,
             "attribute 'alpha' must be a float", "alpha given as an INT")
    w.simple("leakyrelu_alpha_string.onnx",
             [node("LeakyRelu", ["x"], ["y"], name="lrelu", alpha="0.1")],
             [vi("x", T.FLOAT, [2])], y, (), 2,
             "attribute 'alpha' must be a float", "alpha given as a STRING")
    w.simple("cast_to_string.onnx",
             [node("Cast", ["x"], ["y"], name="cast", to=T.STRING)],
             [vi("x", T.FLOAT, [2])], y, (), 3,
             "tensor element type STRING (8) is not supported",
             "a valid Cast to STRING: unsupported type (exit 3)")
    w.simple("cast_to_out_of_range.onnx",
             [node("Cast", ["x"], ["y"], name="cast", to=(1 << 32) + 1)],
             [vi("x", T.INT64, [2])], y, (), 2, "4294967297",
             "Cast.to = 2^32+1: no such type (must not wrap to FLOAT)")
    # Composite ops (DepthToSpace, SpaceToDepth, InstanceNormalization).
    D = [vi("x", T.FLOAT, [1, 8, 4, 4])]
    w.simple("depthtospace_blocksize_zero.onnx",
             [node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=0)], D,
             y, (), 2, "positive blocksize", "blocksize 0 (a divisor)")
    w.simple("depthtospace_blocksize_2pow32.onnx",
             [node("DepthToSpace", ["x"], ["y"], name="d2s",
                   blocksize=1 << 32)], D, y, (), 2, "blocksize",
             "blocksize 2^32: blocksize^2 wraps to 0, then C % 0")
    w.simple("spacetodepth_blocksize_huge.onnx",
             [node("SpaceToDepth", ["x"], ["y"], name="s2d",
                   blocksize=1 << 62)], D, y, (), 2, "blocksize",
             "blocksize 2^62 for a 4x4 input")
    w.simple("depthtospace_unknown_mode.onnx",
             [node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2,
                   mode="XYZ")], D, y, (), 2, "mode 'XYZ'",
             "mode 'XYZ' (only DCR and CRD exist)")
    w.simple("instancenorm_scale_wrong_size.onnx",
             [node("InstanceNormalization", ["x", "s", "b"], ["y"],
                   name="inorm")], D, y,
             [const("s", np.arange(3, dtype=np.float32)),
              const("b", np.arange(3, dtype=np.float32))], 2, "scale",
             "scale and B hold 3 values for 8 channels")
    w.simple("clip_min_not_scalar.onnx",
             [node("Clip", ["x", "lo"], ["y"], name="clip")],
             [vi("x", T.FLOAT, [2])], y,
             [const("lo", np.zeros(2, np.float32))], 2,
             "min must be a scalar", "Clip min with 2 elements")


def gen_shape_ops(w):
    y = [vi("y", T.FLOAT, None)]
    X = [vi("x", T.FLOAT, [2, 3])]

    def one(rel, op, inputs_, inits, message, why, inputs=X, opset=13,
            exit_code=2, outputs=("y",), **attrs):
        w.simple(rel, [node(op, inputs_, list(outputs), name="n", **attrs)],
                 inputs, y, inits, exit_code, message, why, opset=opset)

    def i64(name, values):
        return const(name, np.array(values, np.int64))

    one("reshape_two_minus_one.onnx", "Reshape", ["x", "s"],
        [i64("s", [-1, -1])], "shape has more than one -1",
        "Reshape shape [-1, -1]")
    one("reshape_wrong_count.onnx", "Reshape", ["x", "s"], [i64("s", [4, 2])],
        "cannot reshape 6 elements into the requested shape",
        "Reshape 6 elements to 4x2")
    one("reshape_negative_dim.onnx", "Reshape", ["x", "s"],
        [i64("s", [-2, -3])], "shape has a negative dimension -2",
        "Reshape shape [-2, -3]")
    one("reshape_zero_copies_missing_dim.onnx", "Reshape", ["x", "s"],
        [i64("s", [6, 1, 0])],
        "shape copies dimension 2, which the input does not have",
        "Reshape shape [6, 1, 0] of a rank-2 input")
    one("reshape_minus_one_with_zero.onnx", "Reshape", ["x", "s"],
        [i64("s", [0, -1])], "cannot infer the -1 dimension",
        "allowzero=1 with [0, -1]", allowzero=1)
    one("reshape_overflow.onnx", "Reshape", ["x", "s"],
        [i64("s", [1 << 62, 1 << 62])], "shape is implausibly large",
        "Reshape to [2^62, 2^62]")
    one("reshape_shape_not_constant.onnx", "Reshape", ["x", "s"], [],
        "input #1 (shape) must be a constant",
        "a valid dynamic Reshape (shape is a graph input): Kiln compiles "
        "static shapes only, so 'cannot compile yet' (exit 3)",
        inputs=X + [vi("s", T.INT64, [2])], exit_code=3)
    one("reshape_float_shape.onnx", "Reshape", ["x", "s"],
        [const("s", np.array([3.0, 2.0], np.float32))],
        "input #1 (shape) must hold integers", "a float shape operand")
    one("slice_zero_step.onnx", "Slice", ["x", "st", "en", "ax", "sp"],
        [i64("st", [0]), i64("en", [2]), i64("ax", [1]), i64("sp", [0])],
        "step of axis 1 is zero", "Slice with step 0")
    one("slice_axis_twice.onnx", "Slice", ["x", "st", "en", "ax"],
        [i64("st", [0, 0]), i64("en", [1, 1]), i64("ax", [1, -1])],
        "axis -1 is sliced twice", "axes [1, -1] name one axis twice")
    one("slice_length_mismatch.onnx", "Slice", ["x", "st", "en"],
        [i64("st", [0, 0]), i64("en", [1])],
        "starts, ends, axes and steps differ in length", "2 starts, 1 end")
    one("slice_axis_out_of_range.onnx", "Slice", ["x", "st", "en", "ax"],
        [i64("st", [0]), i64("en", [1]), i64("ax", [3])],
        "axis 3 is out of range for rank 2", "Slice axis 3 of rank 2")
    one("gather_index_out_of_range.onnx", "Gather", ["x", "i"],
        [i64("i", [0, 7])],
        "index 7 is out of range for an axis of size 2",
        "constant index 7 for an axis of 2")
    one("gather_negative_index_out_of_range.onnx", "Gather", ["x", "i"],
        [i64("i", [-5])], "index -5 is out of range for an axis of size 3",
        "constant index -5 for an axis of 3", axis=1)
    one("gather_int64_min_index.onnx", "Gather", ["x", "i"],
        [i64("i", [-(1 << 63)])], "is out of range for an axis of size 2",
        "constant index INT64_MIN")
    one("gather_float_indices.onnx", "Gather", ["x", "i"],
        [const("i", np.array([1.5, 7.0], np.float32))], "indices",
        "constant float indices (must be int32/int64)")
    one("gather_axis_out_of_range.onnx", "Gather", ["x", "i"],
        [i64("i", [0])], "axis 2 is out of range for rank 2",
        "Gather axis 2 of rank 2", axis=2)
    one("gather_from_scalar.onnx", "Gather", ["x", "i"], [i64("i", [0])],
        "cannot gather from a scalar", "Gather from a rank-0 tensor",
        inputs=[vi("x", T.FLOAT, [])])
    one("split_sizes_not_summing.onnx", "Split", ["x", "s"],
        [i64("s", [1, 1])], "split sizes add up to 2, the axis has 3",
        "split [1, 1] of an axis of 3", outputs=("y", "z"), axis=1)
    one("split_negative_size.onnx", "Split", ["x", "s"],
        [i64("s", [4, -1])], "bad split size -1", "split [4, -1]",
        outputs=("y", "z"), axis=1)
    one("split_size_overflow.onnx", "Split", ["x", "s"],
        [i64("s", [(1 << 63) - 1, (1 << 63) - 1])], "bad split size",
        "split sizes whose sum overflows int64", outputs=("y", "z"), axis=1)
    one("split_count_mismatch.onnx", "Split", ["x", "s"],
        [i64("s", [1, 2])], "split has 2 sizes for 3 outputs",
        "2 sizes, 3 outputs", outputs=("y", "z", "w"), axis=1)
    one("split_uneven.onnx", "Split", ["x"], [],
        "cannot split size 3 evenly into 2 outputs",
        "even split of 3 into 2", outputs=("y", "z"), axis=1)
    one("split_attr_sizes_opset11.onnx", "Split", ["x"], [],
        "split sizes add up to 5, the axis has 3",
        "opset-11 split attribute [2, 3] for an axis of 3",
        outputs=("y", "z"), axis=1, split=[2, 3], opset=11)
    one("transpose_perm_not_permutation.onnx", "Transpose", ["x"], [],
        "permutation is not a permutation of 0..1", "perm [1, 1]",
        perm=[1, 1])
    one("transpose_perm_out_of_range.onnx", "Transpose", ["x"], [],
        "permutation is not a permutation of 0..1", "perm [0, 9]",
        perm=[0, 9])
    one("transpose_perm_negative.onnx", "Transpose", ["x"], [],
        "permutation is not a permutation of 0..1", "perm [-1, 0]",
        perm=[-1, 0])
    one("transpose_perm_wrong_length.onnx", "Transpose", ["x"], [],
        "expects 'permutation' to have 2 values, got 3", "perm [0, 1, 2]",
        perm=[0, 1, 2])
    one("transpose_perm_wrong_type.onnx", "Transpose", ["x"], [],
        "attribute 'perm' must be a list of integers", "perm given as an INT",
        perm=1)
    one("squeeze_non_unit_dim.onnx", "Squeeze", ["x", "a"], [i64("a", [1])],
        "cannot squeeze dimension 1 of size 3", "Squeeze axis of size 3")
    one("unsqueeze_duplicate_axis.onnx", "Unsqueeze", ["x", "a"],
        [i64("a", [0, 0])], "axis 0 is listed twice", "axes [0, 0]")
    one("unsqueeze_missing_axes.onnx", "Unsqueeze", ["x"], [],
        "missing axes", "opset-13 Unsqueeze without axes")
    one("unsqueeze_axis_out_of_range.onnx", "Unsqueeze", ["x", "a"],
        [i64("a", [-(1 << 63)])], "is out of range for rank 3",
        "Unsqueeze axis INT64_MIN")
    one("flatten_axis_out_of_range.onnx", "Flatten", ["x"], [],
        "axis 4 is out of range", "Flatten axis 4 of rank 2", axis=4)
    one("softmax_axis_out_of_range.onnx", "Softmax", ["x"], [],
        "axis 3 is out of range for rank 2", "Softmax axis 3", axis=3)
    one("concat_axis_out_of_range.onnx", "Concat", ["x", "x"], [],
        "axis 5 is out of range for rank 2", "Concat axis 5", axis=5)
    one("concat_shape_mismatch.onnx", "Concat", ["x", "z"], [],
        "input #1 has size 4 in dimension 1 where input #0 has 3",
        "Concat of 2x3 and 2x4 on axis 0", axis=0,
        inputs=X + [vi("z", T.FLOAT, [2, 4])])
    one("concat_rank_mismatch.onnx", "Concat", ["x", "z"], [],
        "input #1 has rank 1, input #0 has rank 2", "Concat of rank 2 and 1",
        axis=0, inputs=X + [vi("z", T.FLOAT, [3])])
    one("concat_missing_axis.onnx", "Concat", ["x", "x"], [],
        "missing attribute 'axis'", "Concat without axis")
    one("concat_axis_wrong_type.onnx", "Concat", ["x", "x"], [],
        "attribute 'axis' must be an integer", "Concat axis as a FLOAT",
        axis=1.0)
    one("concat_no_inputs.onnx", "Concat", [], [],
        "needs at least one input", "Concat with no inputs", axis=0)
    one("reduce_duplicate_axes.onnx", "ReduceMean", ["x"], [],
        "axis -1 is listed twice", "axes [1, -1]", axes=[1, -1])
    one("reduce_axis_out_of_range.onnx", "ReduceSum", ["x", "a"],
        [i64("a", [2])], "axis 2 is out of range for rank 2",
        "ReduceSum axis 2")
    one("argmax_empty_axis.onnx", "ArgMax", ["x"], [],
        "cannot take an index over the empty axis", "ArgMax over a 0-size axis",
        inputs=[vi("x", T.FLOAT, [0, 3])])
    one("pad_wrong_count.onnx", "Pad", ["x", "p"], [i64("p", [1, 1, 1])],
        "pads must have 2 x rank = 4 values, got 3", "3 pads for rank 2")
    one("pad_reflect_too_wide.onnx", "Pad", ["x", "p"],
        [i64("p", [0, 5, 0, 0])], "reflect padding of 5 needs dimension 1",
        "reflect padding wider than the input", mode="reflect")
    one("pad_unknown_mode.onnx", "Pad", ["x", "p"], [i64("p", [0, 0, 0, 0])],
        "unknown pad mode 'wrap'", "mode 'wrap'", mode="wrap")
    one("pad_negative_beyond_size.onnx", "Pad", ["x", "p"],
        [i64("p", [0, -5, 0, 0])], "is out of bounds for dimension 1",
        "pads crop 5 from an axis of 3")
    one("pad_int64_min.onnx", "Pad", ["x", "p"],
        [i64("p", [-(1 << 63), 0, 0, 0])], "is out of bounds for dimension 0",
        "pad INT64_MIN (negating it overflows)")
    one("constantofshape_negative.onnx", "ConstantOfShape", ["s"],
        [i64("s", [2, -1])], "shape has a negative dimension -1",
        "ConstantOfShape [2, -1]", inputs=[])
    one("constantofshape_huge.onnx", "ConstantOfShape", ["s"],
        [i64("s", [1 << 40, 1 << 40])], "shape is implausibly large",
        "ConstantOfShape [2^40, 2^40]", inputs=[])
    one("constantofshape_value_two_elements.onnx", "ConstantOfShape", ["s"],
        [i64("s", [2])], "value must hold one element",
        "value tensor with 2 elements", inputs=[],
        value=numpy_helper.from_array(np.zeros(2, np.float32)))
    n = node("ConstantOfShape", ["s"], ["y"], name="n")
    n.attribute.append(helper.make_attribute("value", 3))
    w.simple("constantofshape_value_wrong_type.onnx", [n], [], y,
             [i64("s", [2])], 2, "attribute 'value' must be a tensor",
             "value given as an INT, not a TENSOR")
    one("range_zero_delta.onnx", "Range", ["a", "b", "c"],
        [i64("a", 0), i64("b", 5), i64("c", 0)], "delta must not be zero",
        "Range delta 0", inputs=[])
    one("range_not_scalar.onnx", "Range", ["a", "b", "c"],
        [i64("a", [0, 1]), i64("b", 5), i64("c", 1)],
        "start, limit and delta must be scalars", "Range start [0, 1]",
        inputs=[])
    one("range_huge_count.onnx", "Range", ["a", "b", "c"],
        [const("a", np.array(0, np.float32)),
         const("b", np.array(1e30, np.float32)),
         const("c", np.array(1, np.float32))],
        "the range has implausibly many elements",
        "Range 0..1e30: the count does not fit int64", inputs=[])
    one("range_infinite.onnx", "Range", ["a", "b", "c"],
        [const("a", np.array(0, np.float32)),
         const("b", np.array(np.inf, np.float32)),
         const("c", np.array(1, np.float32))],
        "the range has implausibly many elements", "Range 0..inf",
        inputs=[])
    one("tile_wrong_count.onnx", "Tile", ["x", "r"], [i64("r", [2])],
        "repeats must have one value per dimension", "1 repeat for rank 2")
    one("tile_negative.onnx", "Tile", ["x", "r"], [i64("r", [1, -2])],
        "repeats must be non-negative", "repeats [1, -2]")
    one("tile_huge.onnx", "Tile", ["x", "r"], [i64("r", [1 << 62, 1 << 62])],
        "the tiled tensor is implausibly large", "repeats [2^62, 2^62]")
    one("expand_incompatible.onnx", "Expand", ["x", "s"], [i64("s", [4, 4])],
        "cannot expand the input to the requested shape", "Expand 2x3 to 4x4")
    one("expand_negative_shape.onnx", "Expand", ["x", "s"],
        [i64("s", [-5])], "negative", "Expand a [1] to shape [-5]",
        inputs=[vi("x", T.FLOAT, [1])])
    one("expand_overflow.onnx", "Expand", ["x", "s"],
        [i64("s", [1 << 31, 1 << 31, 1 << 31])], "implausibly large",
        "Expand to 2^93 elements", inputs=[vi("x", T.FLOAT, [1])])
    # Result shapes whose element count overflows int64, on constants: the
    # folders size their work with the wrapped count.
    one("expand_constant_result_overflow.onnx", "Expand", ["a", "s"],
        [const("a", np.array([1, 2], np.float32)), i64("s", [1 << 62, 2])],
        "implausibly large",
        "Expand a 2-element constant to [2^62, 2]: 2^63 elements", inputs=[])
    one("expand_constant_count_wraps.onnx", "Expand", ["a", "s"],
        [const("a", np.array([[1, 2]], np.float32)),
         i64("s", [1 << 32, 1 << 32, 2])], "implausibly large",
        "Expand a constant to [2^32, 2^32, 2]: the count wraps to 0",
        inputs=[])
    one("expand_constant_negative_shape.onnx", "Expand", ["a", "s"],
        [const("a", np.array([1], np.float32)), i64("s", [-5])], "negative",
        "Expand a constant [1] to shape [-5]", inputs=[])
    w.simple("concat_constant_count_wraps.onnx",
             [node("Expand", ["a", "s"], ["e"], name="expand"),
              node("Concat", ["e", "b"], ["y"], name="concat", axis=0)], [], y,
             [const("a", np.array([1], np.float32)), i64("s", [1 << 62, 4]),
              const("b", np.array([[1, 2, 3, 4]], np.float32))], 2,
             "implausibly large",
             "Concat of a [2^62, 4] splat and a [1, 4] constant: the count "
             "wraps to 4, so it is folded element by element")
    one("pad_result_overflow.onnx", "Pad", ["a", "p"],
        [const("a", np.array([[1, 2], [3, 4]], np.float32)),
         i64("p", [0, 0, 1 << 33, 1 << 33])], "implausibly large",
        "Pad a 2x2 constant to (2^33+2)^2 elements (overflows int64)",
        inputs=[])
    one("range_16m_elements.onnx", "Range", ["a", "b", "c"],
        [const("a", np.array(0, np.float32)),
         const("b", np.array((1 << 24) - 1, np.float32)),
         const("c", np.array(1, np.float32))],
        "the range has implausibly many elements",
        "hostile: a 150-byte Range of 2^24-1 elements, inside the importer's "
        "2^24 limit, takes over a minute and gigabytes to materialise",
        inputs=[])
    one("where_float_condition.onnx", "Where", ["c", "a", "b"], [],
        "must be statically shaped tensor of boolean (i1) values",
        "Where with a float condition",
        inputs=[vi("c", T.FLOAT, [2]), vi("a", T.FLOAT, [2]),
                vi("b", T.FLOAT, [2])])
    one("where_float_condition_same_branches.onnx", "Where", ["c", "a", "a"],
        [], "boolean (i1)",
        "Where with a float condition and equal branches: folded away "
        "before the verifier sees the bad condition",
        inputs=[vi("c", T.FLOAT, [2]), vi("a", T.FLOAT, [2])])
    one("batchnorm_param_shape.onnx", "BatchNormalization",
        ["x", "s", "b", "m", "v"],
        [const(n_, np.ones(4, np.float32)) for n_ in "sbmv"],
        "expects scale of shape 3 (the channel count), got 4",
        "BatchNormalization parameters for 4 channels, input has 3")
    one("layernorm_axis_out_of_range.onnx", "LayerNormalization", ["x", "s"],
        [const("s", np.ones(3, np.float32))],
        "axis 5 is out of range for rank 2", "LayerNormalization axis 5",
        axis=5, opset=17)

    # Constant nodes.
    w.simple("constant_no_value.onnx", [node("Constant", [], ["y"], name="c")],
             [], y, (), 2, "expects exactly one value attribute",
             "Constant without a value")
    n = node("Constant", [], ["y"], name="c", value_float=1.0)
    n.attribute.append(helper.make_attribute("value_int", 2))
    w.simple("constant_two_values.onnx", [n], [], y, (), 2,
             "expects exactly one value attribute", "Constant with two values")
    sp = helper.make_sparse_tensor(
        numpy_helper.from_array(np.array([5.0], np.float32), "v"),
        numpy_helper.from_array(np.array([1], np.int64), "i"), [4])
    w.simple("constant_sparse_value.onnx",
             [node("Constant", [], ["y"], name="c", sparse_value=sp)], [], y,
             (), 3, "sparse",
             "a valid Constant with sparse_value: not supported (exit 3)")
    w.simple("constant_value_strings.onnx",
             [node("Constant", [], ["y"], name="c",
                   value_strings=[b"a", b"b"])], [], y, (), 3,
             "constant attribute 'value_strings' is not supported",
             "a valid Constant with value_strings: not supported (exit 3)")
    t = T(name="t", data_type=T.STRING, dims=[1], string_data=[b"x"])
    w.simple("constant_string_tensor.onnx",
             [node("Constant", [], ["y"], name="c", value=t)], [], y, (), 3,
             "tensor element type STRING (8) is not supported",
             "a valid Constant holding a STRING tensor (exit 3)")
    t = T(name="t", data_type=T.FLOAT, dims=[4], raw_data=b"\0" * 3)
    w.simple("constant_value_raw_data_short.onnx",
             [node("Constant", [], ["y"], name="c", value=t)], [], y, (), 2,
             "holds 3 bytes of data, its shape needs 16",
             "Constant value with 3 bytes for float[4]")
    n = node("Constant", [], ["y"], name="c")
    n.attribute.append(AttributeProto(name="value", type=AttributeProto.INT,
                                      i=3))
    w.simple("constant_value_wrong_type.onnx", [n], [], y, (), 2,
             "attribute 'value' must be a tensor",
             "Constant 'value' given as an INT")


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


def gen_misc(w):
    os.makedirs(w.path("directory_named_like_a_model.onnx"), exist_ok=True)
    case("directory_named_like_a_model.onnx", 2, "cannot read the model",
         "the model path is a directory")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_corpus.py OUTDIR")
    out = sys.argv[1]
    if os.path.lexists(out):
        # Only ever delete an earlier corpus (or an empty folder).
        if os.path.islink(out) or not os.path.isdir(out) or (
                os.listdir(out) and
                not os.path.exists(os.path.join(out, MARKER)) and
                not os.path.exists(os.path.join(out, "expectations.json"))):
            sys.exit("make_corpus.py: %s exists and is not a corpus; not "
                     "touching it" % out)
        shutil.rmtree(out)
    os.makedirs(out)
    with open(os.path.join(out, MARKER), "w") as f:
        f.write("written by make_corpus.py; deleted and rewritten by it\n")
    w = Writer(out)
    gen_bytes(w)
    gen_model_level(w)
    gen_nesting(w)
    gen_tensors(w)
    gen_structure(w)
    gen_operators(w)
    gen_shape_ops(w)
    gen_external(w)
    gen_misc(w)
    # Messages as worded since the bugs these cases found were fixed.
    reworded = {
        "cast_to_string.onnx": "tensor element type STRING is not supported",
        "constant_string_tensor.onnx": "tensor element type STRING is not supported",
        "initializer_string.onnx": "tensor element type STRING is not supported",
        "initializer_uint8.onnx": "tensor element type UINT8 is not supported",
        "input_uint8.onnx": "tensor element type UINT8 is not supported",
        "input_complex64.onnx": "tensor element type COMPLEX64 is not supported",
        "initializer_type_999.onnx": "invalid tensor element type 999",
        "initializer_type_undefined.onnx": "invalid tensor element type 0",
        "input_elem_type_negative.onnx": "invalid tensor element type -5",
        "conv_rank1_input.onnx": "must be [N, C, spatial...] tensors of one rank",
        "conv_scalar_input.onnx": "must be [N, C, spatial...] tensors of one rank",
        "conv_weight_rank_mismatch.onnx": "must be [N, C, spatial...] tensors of one rank",
        "depthtospace_blocksize_zero.onnx": "blocksize in [1, 65536]",
        "duplicate_graph_input.onnx": "graph input 'x' is declared twice",
        "duplicate_initializer.onnx": "initializer 'b' is defined twice",
        "concat_constant_count_wraps.onnx": "would have the impossible type",
        "expand_constant_count_wraps.onnx": "would have the impossible type",
        "expand_constant_result_overflow.onnx": "would have the impossible type",
        "expand_overflow.onnx": "would have the impossible type",
        "pad_result_overflow.onnx": "would have the impossible type",
        "ext/ext_symlink_file.onnx": "links are refused",
        "ext/ext_symlink_parent_dir.onnx": "links are refused",
        "range_16m_elements.onnx": "the range has too many elements",
        "range_huge_count.onnx": "the range has too many elements",
        "range_infinite.onnx": "the range has too many elements",
        "conv_same_upper_huge_stride.onnx": "must be positive",
        "pad_int64_min.onnx": "crop more than its",
        "pad_negative_beyond_size.onnx": "crop more than its",
    }
    # Cases that turned out to be valid models once the arithmetic was
    # right (a single window with stride INT64_MAX is well defined).
    valid = {"maxpool_same_upper_int64_max_stride.onnx"}
    # Valid ONNX that Kiln does not run: "unsupported" (3), not "invalid".
    unsupported = {"input_sequence_type.onnx", "opset_only_custom_domain.onnx"}
    reworded["input_without_type.onnx"] = "input 'x' has no type"
    expectations = {}
    for rel, exit_code, message, args, why in CASES:
        if rel in valid:
            os.remove(os.path.join(out, rel))
            continue
        message = reworded.get(rel, message)
        if rel in unsupported:
            exit_code = 3
        assert rel not in expectations, rel
        entry = {"exit": exit_code, "message": message, "why": why}
        if args:
            entry["args"] = args
        expectations[rel] = entry
    with open(os.path.join(out, "expectations.json"), "w") as f:
        json.dump(expectations, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d malformed models to %s" % (len(expectations), out))


if __name__ == "__main__":
    main()
