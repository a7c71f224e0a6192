#!/usr/bin/python3
"""Runs kiln-run on damaged copies of an artifact and checks that every one is
rejected cleanly: exit code 2 (invalid artifact; 3 for a flip in the version
field, which reads as a newer format) and a kiln-run error message,
never a crash (negative return code = killed by a signal), never a hang.

Damage: truncation at every 16th byte and at every byte of the first 256
(header and section table), and 300 random single-bit flips (seeded).

Usage: corrupt_sweep.py KILN_RUN ARTIFACT INPUT_SPEC WORK_DIR
"""
import os
import random
import subprocess
import sys

kiln_run, artifact, input_spec, work = sys.argv[1:5]
data = open(artifact, "rb").read()
os.makedirs(work, exist_ok=True)
damaged = os.path.join(work, "damaged.kiln")


def check(blob, what):
    with open(damaged, "wb") as f:
        f.write(blob)
    try:
        result = subprocess.run([kiln_run, damaged, "--input", input_spec],
                                capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        sys.exit(f"FAIL {what}: kiln-run hung")
    if result.returncode < 0:
        sys.exit(f"FAIL {what}: kiln-run died with signal {-result.returncode}")
    if result.returncode == 0:
        return "accepted"
    # A flip in the version field reads as a newer format: unsupported (3).
    newer = result.returncode == 3 and "artifact format version" in result.stderr
    if (result.returncode != 2 and not newer) or \
            "kiln-run: error:" not in result.stderr:
        sys.exit(f"FAIL {what}: exit {result.returncode}, stderr {result.stderr!r}")
    return "rejected"


lengths = sorted(set(list(range(0, min(256, len(data)))) +
                     list(range(0, len(data), 16))))
for length in lengths:
    if check(data[:length], f"truncated to {length}") != "rejected":
        sys.exit(f"FAIL truncated to {length}: accepted")

rng = random.Random(1234)
accepted = 0
for _ in range(300):
    position = rng.randrange(len(data))
    blob = bytearray(data)
    blob[position] ^= 1 << rng.randrange(8)
    # Only alignment padding is outside every checksum; a flip there may be
    # accepted, anything else must be rejected.
    if check(bytes(blob), f"bit flip at {position}") == "accepted":
        accepted += 1
print(f"truncations: {len(lengths)} rejected; bit flips: 300 tried, "
      f"{300 - accepted} rejected, {accepted} in padding accepted")
print("SWEEP OK")
