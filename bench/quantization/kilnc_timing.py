"""Timing an artifact with `kilnc bench`, shared by the quantization benches."""

import re
import subprocess


def median_ms(kilnc, artifact, x, iterations):
    """The median of `iterations` one-thread runs (after 10 warm-up runs)."""
    out = subprocess.run([kilnc, "bench", artifact, "--input", "x=" + x, "--warmup", "10",
                          "--iterations", str(iterations), "--threads", "1"],
                         check=True, capture_output=True, text=True).stdout
    return float(re.search(r"median ([0-9.]+) ms", out).group(1))
