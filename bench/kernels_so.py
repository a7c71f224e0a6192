#!/usr/bin/python3
"""Writes the CPU kernels of a .kiln artifact out as a plain .so file.

The runtime loads kernels from a memfd, so `perf report` shows only
addresses inside `memfd:kiln-kernels`; disassemble the extracted file at
those addresses (plus the .ltext/.text load address) to see the hot loops:

  perf record -o perf.data -- build/bin/kiln-run M.kiln --input ... --iterations 5
  perf report -i perf.data --sort dso,sym
  bench/kernels_so.py M.kiln kernels.so && objdump -d kernels.so

Usage: kernels_so.py ARTIFACT.kiln OUT.so   (layout: docs/artifact-format.md)
"""
import struct
import sys

KIND_CPU_KERNELS = 3


def main():
    artifact, out = sys.argv[1:3]
    with open(artifact, "rb") as f:
        data = f.read()
    if data[:8] != b"KILNART\0":
        sys.exit(f"{artifact}: not a .kiln artifact")
    (count,) = struct.unpack_from("<I", data, 16)
    for index in range(count):
        kind, _, offset, size = struct.unpack_from("<IIQQ", data,
                                                   64 + 32 * index)
        if kind == KIND_CPU_KERNELS:
            with open(out, "wb") as f:
                f.write(data[offset:offset + size])
            print(f"wrote {out} ({size} bytes)")
            return
    sys.exit(f"{artifact}: no CPU kernels section")


if __name__ == "__main__":
    main()
