"""splice_ranks.py A.kiln B.kiln OUT.kiln: rank 0 of A with rank 1 of B.

Both are 2-rank artifacts (docs/sharding.md's container format); OUT gets
a fresh checksum, so that only the runtime's own checks can catch that the
ranks' programs do not belong together.
"""
import struct
import sys
import zlib


def ranks(path):
    data = open(path, "rb").read()
    assert data[:8] == b"KILNRANK", path
    version, count = struct.unpack_from("<II", data, 8)
    (length,) = struct.unpack_from("<I", data, 16)
    strategy = data[20:20 + length]
    at, parts = 20 + length, []
    for _ in range(count):
        (size,) = struct.unpack_from("<Q", data, at)
        parts.append(data[at + 8:at + 8 + size])
        at += 8 + size
    return version, strategy, parts


version, strategy, a = ranks(sys.argv[1])
_, _, b = ranks(sys.argv[2])
out = bytearray(b"KILNRANK" + struct.pack("<II", version, 2))
out += struct.pack("<I", len(strategy)) + strategy
for part in (a[0], b[1]):
    out += struct.pack("<Q", len(part)) + part
out += struct.pack("<I", zlib.crc32(out))
open(sys.argv[3], "wb").write(out)
