"""Byte-level damage, model-level fields and nesting depth.

Part of the malformed-model corpus: make_corpus.py calls every gen_*
function with its Writer.
"""
import numpy as np
from onnx import numpy_helper

from corpus_lib import (T, vi, node, varint, field, make_model, f32,
                        base_model, PARSE)


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
            head + field(7, 2, nested_if_graph(3) + io), 2,
            "node 'if2' (If): attribute 'else_branch' must be a graph",
            "a shallow If nest whose Ifs have no else_branch")
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
