#!/usr/bin/python3
"""Writes a small CUDA .kiln artifact and its input, encoded from
docs/artifact-format.md independently of the C++ encoder.

y = add_one(scale(x, c)) = x * c + 1 on four floats, c = [2, 3, 4, 5] from
the constants section, as in test/unit/runtime's CudaTestArtifacts.h.
By default the module images are stand-ins (for runs without a GPU: no
driver, or the fake driver). With --nvcc they are real: scale_add_one.cu
compiled to PTX for compute_<--ptx> and to CUBIN for each of --cubin.

Usage: make_cuda_artifact.py OUT_DIR [--nvcc NVCC] [--ptx 80]
                             [--cubin 80,90] [--name model]
Writes OUT_DIR/NAME.kiln and OUT_DIR/x.npy.
"""
import argparse
import os
import struct
import subprocess
import zlib

import numpy as np


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v)


def string(s):
    b = s.encode()
    return u32(len(b)) + b


def tensors(specs):
    out = u32(len(specs))
    for name, dtype, shape in specs:
        out += string(name) + u32(dtype) + u32(len(shape))
        out += b"".join(struct.pack("<q", d) for d in shape)
        out += struct.pack("<i", -1) + u32(0)  # no run-time length
    return out


INPUT, OUTPUT, ARENA, CONSTANTS = 1, 2, 3, 4


READ, WRITE, READ_WRITE = 1, 2, 3


def launch(kernel, grid, block, shared, args, after):
    """A kLaunchKernel step of format 4 (docs/artifact-format.md): no debug
    information (an empty source, no results)."""
    out = u32(2) + string(kernel)
    out += b"".join(u32(d) for d in grid) + b"".join(u32(d) for d in block)
    out += u32(shared) + u32(len(args))
    for base, index, offset, size in args:
        access = READ if base in (INPUT, CONSTANTS) else READ_WRITE
        out += u32(base) + u32(index) + u64(offset) + u64(size) + u32(access)
    out += u32(len(after)) + b"".join(u32(a) for a in after)
    out += string("") + u32(0) + u64(0)  # source, results, flops
    return out


F32 = 1
program = tensors([("x", F32, [4])]) + tensors([("y", F32, [4])])
program += u32(1)  # one device
program += u32(2) + u64(1024) + u32(2)  # cuda, arena bytes, steps
program += launch("scale", (2, 1, 1), (128, 1, 1), 0,
                  [(INPUT, 0, 0, 16), (CONSTANTS, 0, 256, 16),
                   (ARENA, 0, 512, 16)], [])
program += launch("add_one", (1, 1, 1), (32, 4, 1), 0,
                  [(ARENA, 0, 512, 16), (OUTPUT, 0, 0, 16)], [0])


def module(fmt, arch, kernels, image):
    out = u32(fmt) + u32(arch) + u32(len(kernels))
    out += b"".join(string(k) for k in kernels)
    return out + u64(len(image)) + image


PTX, CUBIN = 1, 2
parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--nvcc")
parser.add_argument("--ptx", type=int, default=80)
parser.add_argument("--cubin", default="90")
parser.add_argument("--name", default="model")
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)
kernels = ["scale", "add_one"]
cubins = [int(a) for a in args.cubin.split(",") if a]
images = []
if args.nvcc:
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "scale_add_one.cu")
    ptx = os.path.join(args.out, "kernels.ptx")
    subprocess.check_call([args.nvcc, "-ptx", f"-arch=compute_{args.ptx}",
                           source, "-o", ptx])
    images.append((PTX, args.ptx, open(ptx, "rb").read() + b"\0"))
    for arch in cubins:
        cubin = os.path.join(args.out, f"kernels_sm{arch}.cubin")
        subprocess.check_call([args.nvcc, "-cubin", f"-arch=sm_{arch}",
                               source, "-o", cubin])
        images.append((CUBIN, arch, open(cubin, "rb").read()))
else:
    images.append((PTX, args.ptx, f".target sm_{args.ptx} .entry scale "
                   ".entry add_one\0".encode()))
    for arch in cubins:
        images.append((CUBIN, arch, f"\x7fELF sm_{arch} scale add_one\0"
                       .encode("latin-1")))
modules = u32(len(images))
for fmt, arch, image in images:
    modules += module(fmt, arch, kernels, image)
constants = bytearray(512)
constants[256:272] = struct.pack("<4f", 2, 3, 4, 5)

target = " ".join(["cuda"] + [",".join(f"sm_{a}" for a in cubins)] * bool(cubins))
sections = [(1, target.encode()), (2, program), (5, modules),
            (6, bytes(constants))]
table_end = 64 + 32 * len(sections)
body = bytearray((table_end + 15) // 16 * 16)
entries = []
for kind, data in sections:
    entries.append((kind, len(body), len(data), zlib.crc32(data)))
    body += data
    body += bytes(-len(body) % 16)
table = b"".join(u32(k) + u32(0) + u64(o) + u64(s) + u32(c) + u32(0)
                 for k, o, s, c in entries)
header = bytearray(b"KILNART\0" + u32(4) + u32(64) + u32(len(sections)) +
                   u32(0) + u64(len(body)) + u32(0) + u32(zlib.crc32(table)))
header += bytes(64 - len(header))
header[32:36] = u32(zlib.crc32(bytes(header)))
body[0:64] = header
body[64:table_end] = table

with open(os.path.join(args.out, args.name + ".kiln"), "wb") as f:
    f.write(body)
np.save(os.path.join(args.out, "x.npy"), np.array([1, 2, 3, 4], np.float32))
