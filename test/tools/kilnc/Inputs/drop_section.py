"""Rewrites a .kiln artifact without the sections of the given kinds, the
way an older Kiln would have written it (docs/artifact-format.md): header,
section table and checksums are rebuilt.

usage: drop_section.py IN.kiln OUT.kiln KIND...
"""
import struct
import sys
import zlib


def main(src, dst, kinds):
    data = open(src, "rb").read()
    version, count = struct.unpack_from("<I", data, 8)[0], \
        struct.unpack_from("<I", data, 16)[0]
    sections = []
    for i in range(count):
        k, flags, offset, size, _ = struct.unpack_from("<IIQQI", data, 64 + 32 * i)
        if k not in kinds:
            sections.append((k, flags, data[offset:offset + size]))
    align = lambda n: (n + 15) // 16 * 16
    offset = align(64 + 32 * len(sections))
    table, body = b"", b""
    for k, flags, payload in sections:
        table += struct.pack("<IIQQII", k, flags, offset, len(payload),
                             zlib.crc32(payload), 0)
        body += payload + b"\0" * (align(len(payload)) - len(payload))
        offset += align(len(payload))
    header = bytearray(64)
    header[0:8] = b"KILNART\0"
    struct.pack_into("<IIIIQII", header, 8, version, 64, len(sections), 0,
                     offset, 0,
                     zlib.crc32(table))
    struct.pack_into("<I", header, 32, zlib.crc32(bytes(header)))
    pad = align(64 + len(table)) - 64 - len(table)
    open(dst, "wb").write(bytes(header) + table + b"\0" * pad + body)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], {int(k) for k in sys.argv[3:]})
