"""Flips one byte in the middle of the stored value of every entry of a
compile cache folder (DiskCache's layout: magic, key size, key, value
size, the value's BLAKE3 hash, value), so each entry fails its check."""
import glob
import struct
import sys

for path in glob.glob(sys.argv[1] + "/*.bin"):
    data = bytearray(open(path, "rb").read())
    (key_size,) = struct.unpack_from("<Q", data, 8)
    value_start = 16 + key_size + 8 + 32
    middle = value_start + (len(data) - value_start) // 2
    data[middle] ^= 0xFF
    open(path, "wb").write(data)
