#!/usr/bin/python3
"""Runs kiln-sim over offered loads and policies and prints SLO attainment
as a Markdown table and an ASCII chart (the figures in
docs/resource-manager.md).

Usage: kiln-sim-sweep.py KILN_SIM CONFIG.json [--loads 0.5,0.6,...]
       [--policies kiln,fifo,round-robin,jsq,triton] [--set PATH=VALUE]...
"""
import argparse
import json
import subprocess
import sys


def run(kiln_sim, config, policy, load, edits):
    command = [kiln_sim, config, "--policy", policy, "--load", str(load)]
    for edit in edits:
        command += ["--set", edit]
    out = subprocess.run(command, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kiln_sim")
    parser.add_argument("config")
    parser.add_argument("--loads", default="0.5,0.6,0.7,0.8,0.85,0.9,0.95")
    parser.add_argument("--policies", default="kiln,fifo,round-robin")
    parser.add_argument("--set", action="append", default=[],
                        help="passed on to kiln-sim")
    args = parser.parse_args()
    loads = [float(x) for x in args.loads.split(",")]
    policies = args.policies.split(",")

    attainment = {}
    high_p99 = {}
    for policy in policies:
        for load in loads:
            report = run(args.kiln_sim, args.config, policy, load, args.set)
            attainment[policy, load] = report["overall"]["slo_attainment"]
            high = [g for g in report["by_priority"] if g["priority"] == 0]
            high_p99[policy, load] = high[0]["p99_over_unloaded"] if high else 0

    print("| load | " + " | ".join(policies) +
          " | Kiln high-priority p99 / unloaded |")
    print("|---|" + "---|" * (len(policies) + 1))
    for load in loads:
        cells = ["%.2f%%" % (100 * attainment[p, load]) for p in policies]
        print("| %d%% | %s | %.2fx |" % (round(100 * load), " | ".join(cells),
                                          high_p99.get(("kiln", load), 0)))

    # ASCII chart: one row per load, one bar per policy, 0..100%.
    print()
    print("SLO attainment (each # is 2.5%)")
    marks = {"kiln": "K", "fifo": "F", "round-robin": "R", "jsq": "J",
             "triton": "T"}
    for load in loads:
        for i, policy in enumerate(policies):
            value = attainment[policy, load]
            bar = "#" * int(round(value * 40))
            label = ("%3d%% " % round(100 * load)) if i == 0 else "     "
            print("%s%s |%-40s| %6.2f%%" % (label, marks.get(policy, policy[0]),
                                            bar, 100 * value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
