"""Times bench/pure_python/*.py under python3 and under npython (default
policy, and NPY_INTERP=all) in one run, checks the outputs agree, and prints
a markdown table of wall times and ratios to python3.

usage: python3 bench/run_pure_python.py [--repeat N] [--npython PATH] [names...]
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_POLICY_LIMIT = 1.10


def run(cmd, env_extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NPY_")}
    env.update(env_extra)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return elapsed, proc.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per interpreter; the minimum counts")
    parser.add_argument("--npython", default=str(REPO / "build" / "npython"))
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    programs = sorted(HERE.glob("pure_python/*.py"))
    if args.names:
        programs = [p for p in programs if p.stem in args.names]
    configs = [
        ("python3", [sys.executable], {}),
        ("npython", [args.npython], {}),
        ("npython NPY_INTERP=all", [args.npython], {"NPY_INTERP": "all"}),
    ]
    print(f"| program | python3 s | npython s | ratio | NPY_INTERP=all s | ratio |")
    print("|---|---|---|---|---|---|")
    worst_default = 0.0
    mismatches = []
    for program in programs:
        times = {}
        outputs = {}
        # Interleave the interpreters so that machine noise hits them alike.
        for _ in range(args.repeat):
            for label, cmd, env in configs:
                elapsed, out = run(cmd + [str(program)], env)
                times[label] = min(times.get(label, elapsed), elapsed)
                outputs.setdefault(label, out)
        if len(set(outputs.values())) != 1:
            mismatches.append(program.stem)
        base = times["python3"]
        default_ratio = times["npython"] / base
        all_ratio = times["npython NPY_INTERP=all"] / base
        worst_default = max(worst_default, default_ratio)
        print(f"| {program.stem} | {base:.2f} | {times['npython']:.2f} | {default_ratio:.2f} "
              f"| {times['npython NPY_INTERP=all']:.2f} | {all_ratio:.2f} |", flush=True)
    print(f"\nratio = time / python3 time (min of {args.repeat} runs each, interleaved). "
          f"Worst default-policy ratio: {worst_default:.2f} (limit {DEFAULT_POLICY_LIMIT}).")
    if mismatches:
        sys.exit(f"OUTPUTS DIFFER from python3's: {', '.join(mismatches)}")
    if worst_default > DEFAULT_POLICY_LIMIT:
        sys.exit("the default policy is slower than allowed")


if __name__ == "__main__":
    main()
