#!/usr/bin/python3
"""Writes the seed corpora of the compiler's fuzzers (committed; rerun only
to refresh them): fuzz/corpus/onnx and fuzz/corpus/mlir.

onnx: the importer lit tests' models (test/frontend/onnx/Inputs, with the
MLP's symbolic batch fixed so it imports as it is), and the smallest ONNX
node-conformance model (Debian's libonnx-testdata) of each op type the
importer converts. mlir: each `// -----` case of the dialects' round-trip
and invalid tests and of their one-case regression files (each top-level op
of a long round-trip file), without comment lines, up to 1,500 bytes each.
fuzz/mlir.dict: the op and attribute names those tests use, and MLIR's
syntax (the parser is not instrumented: libFuzzer cannot find its keywords
by itself).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import onnx

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "fuzz", "corpus")
testdata = "/usr/share/libonnx-testdata/data/node"


def supported_ops():
    ops = set()
    for path in glob.glob(os.path.join(root, "frontend/onnx/ops/*.cpp")):
        ops.update(re.findall(r'\badd\("(\w+)"', open(path).read()))
    return ops


def onnx_seeds(out):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.check_call([sys.executable, os.path.join(
            root, "test/frontend/onnx/Inputs/make_models.py"), tmp],
            stdout=subprocess.DEVNULL)
        for path in sorted(glob.glob(os.path.join(tmp, "*.onnx"))):
            model = onnx.load(path, load_external_data=False)
            for info in list(model.graph.input) + list(model.graph.output):
                for dim in info.type.tensor_type.shape.dim:
                    if dim.HasField("dim_param"):
                        dim.dim_value = 2
            onnx.save(model, os.path.join(out, "lit-" + os.path.basename(path)))
    ops = supported_ops()
    smallest = {}
    for model_path in glob.glob(os.path.join(testdata, "*/model.onnx")):
        model = onnx.load(model_path, load_external_data=False)
        types = {node.op_type for node in model.graph.node}
        if len(types) != 1 or not types <= ops:
            continue
        op = types.pop()
        size = os.path.getsize(model_path)
        if op not in smallest or size < smallest[op][0]:
            smallest[op] = (size, model_path)
    for op, (_, path) in sorted(smallest.items()):
        shutil.copy(path, os.path.join(out, "node-%s.onnx" % op))


def mlir_seeds(out):
    cases = []
    for path in sorted(glob.glob(os.path.join(root, "test/dialects/**/*.mlir"),
                                 recursive=True)):
        if os.path.basename(path) == "canonicalize.mlir":
            continue  # folders: the parser never runs them
        stem = os.path.relpath(path, os.path.join(root, "test/dialects"))
        stem = stem[:-len(".mlir")].replace("/", "-").lower()
        pieces = []
        for chunk in open(path).read().split("// -----"):
            lines = [l for l in chunk.splitlines()
                     if l.strip() and not l.lstrip().startswith("//")]
            if len("\n".join(lines)) <= 1500:
                pieces.append(lines)
                continue
            # A long round-trip file: one piece per top-level op, each with
            # the file's resource section (`{-# ... #-}`) if it has one.
            trailer = []
            if "{-#" in lines:
                trailer = lines[lines.index("{-#"):]
                lines = lines[:lines.index("{-#")]
            starts = [i for i, l in enumerate(lines) if l[0] not in " }"]
            for begin, end in zip(starts, starts[1:] + [len(lines)]):
                pieces.append(lines[begin:end] + trailer)
        for index, lines in enumerate(pieces):
            text = "\n".join(lines) + "\n"
            if 5 < len(text) <= 1500 and text not in cases:
                cases.append(text)
                with open(os.path.join(out, "%s-%02d.mlir" % (stem, index)),
                          "w") as f:
                    f.write(text)


MLIR_SYNTAX = [
    "func.func", "func.return", "return", "module", "builtin.module", "@main",
    "%0", "%arg0", "^bb0", "->", ":", "=", ",", "(", ")", "{", "}", "<", ">",
    "[", "]", "tensor<", "tensor<?x", "memref<", "vector<", "x", "?", "index",
    "f16", "bf16", "f32", "f64", "i1", "i8", "i32", "i64", "ui8", "complex<",
    "dense<", "dense_resource<", "array<i64: ", "unit", "true", "false",
    "loc(", "attributes", "#kiln.", "!kiln.", "0x", "1.0e+00", "nan", "inf",
    "-1", "9223372036854775807", "{-#", "#-}", "dialect_resources:",
    "blob", "\"0x04000000\"", "private", "public", "nested", "sym_name",
    "sym_visibility", "arith.constant", "linalg.generic", "memref.alloc",
    "scf.for", "llvm.func", "affine_map<(d0) -> (d0)>", "#map", "\"kiln.",
]


def mlir_dict(path):
    ops, attrs = set(), set()
    for test in glob.glob(os.path.join(root, "test/dialects/**/*.mlir"),
                          recursive=True):
        text = "\n".join(l for l in open(test).read().splitlines()
                         if not l.lstrip().startswith("//"))
        ops.update(re.findall(r"\b((?:kiln|exec)\.[a-z_0-9]+)\b", text))
        # Attribute names of three letters or more (not SSA value names).
        attrs.update(a for a in re.findall(r"\b([a-z_][a-z_0-9]*) = ", text)
                     if len(a) > 2)
    with open(path, "w") as f:
        f.write("# libFuzzer dictionary of MlirParseFuzzer: written by "
                "fuzz/make_seeds.py.\n")
        for word in MLIR_SYNTAX + sorted(ops) + sorted(attrs):
            f.write('"%s"\n' % word.replace("\\", "\\\\").replace('"', '\\"'))


mlir_dict(os.path.join(root, "fuzz", "mlir.dict"))
for name, make in (("onnx", onnx_seeds), ("mlir", mlir_seeds)):
    folder = os.path.join(corpus, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    make(folder)
    files = os.listdir(folder)
    size = sum(os.path.getsize(os.path.join(folder, f)) for f in files)
    print("%s: %d seeds, %d bytes" % (name, len(files), size))
