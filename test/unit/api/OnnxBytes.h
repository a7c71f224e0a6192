// Serialised ONNX models for the API tests, written field by field in the
// protobuf wire format (the tests see only the installed headers, so they
// cannot use the generated onnx.pb.h). Only what the tests need.
#ifndef KILN_TEST_UNIT_API_ONNXBYTES_H
#define KILN_TEST_UNIT_API_ONNXBYTES_H

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::test::onnx {

/// A protobuf message under construction.
class Message {
public:
  Message &varint(int field, uint64_t value) {
    key(field, 0);
    putVarint(value);
    return *this;
  }
  Message &bytes(int field, const std::string &value) {
    key(field, 2);
    putVarint(value.size());
    out_ += value;
    return *this;
  }
  Message &message(int field, const Message &value) {
    return bytes(field, value.out_);
  }
  const std::string &str() const { return out_; }

private:
  void key(int field, int wireType) {
    putVarint(uint64_t(field) << 3 | wireType);
  }
  void putVarint(uint64_t value) {
    do {
      uint8_t byte = value & 0x7f;
      value >>= 7;
      out_ += char(value ? byte | 0x80 : byte);
    } while (value);
  }
  std::string out_;
};

enum ElemType { kFloat = 1, kInt64 = 7 };

/// A dimension: a size, or a symbolic name when `param` is not empty.
struct Dim {
  int64_t value = 0;
  std::string param;
};

/// ValueInfoProto: name, tensor type with `dims`.
inline Message valueInfo(const std::string &name, ElemType type,
                         const std::vector<Dim> &dims) {
  Message shape;
  for (const Dim &dim : dims) {
    Message d;
    if (dim.param.empty())
      d.varint(1, uint64_t(dim.value));
    else
      d.bytes(2, dim.param);
    shape.message(1, d);
  }
  Message tensor;
  tensor.varint(1, type).message(2, shape);
  Message typeProto;
  typeProto.message(1, tensor);
  return Message().bytes(1, name).message(2, typeProto);
}

/// NodeProto without attributes.
inline Message node(const std::string &op, const std::vector<std::string> &in,
                    const std::vector<std::string> &out,
                    const std::string &name) {
  Message n;
  for (const std::string &i : in)
    n.bytes(1, i);
  for (const std::string &o : out)
    n.bytes(2, o);
  return n.bytes(3, name).bytes(4, op);
}

/// ModelProto (IR version 8, default opset `opset`) around one graph.
inline std::string model(const std::vector<Message> &nodes,
                         const std::vector<Message> &inputs,
                         const std::vector<Message> &outputs, int opset = 17) {
  Message graph;
  for (const Message &n : nodes)
    graph.message(1, n);
  graph.bytes(2, "test");
  for (const Message &i : inputs)
    graph.message(11, i);
  for (const Message &o : outputs)
    graph.message(12, o);
  Message opsetId;
  opsetId.bytes(1, "").varint(2, uint64_t(opset));
  return Message().varint(1, 8).message(7, graph).message(8, opsetId).str();
}

} // namespace kiln::test::onnx

#endif // KILN_TEST_UNIT_API_ONNXBYTES_H
