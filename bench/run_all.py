"""Run every benchmark under bench/ in turn (`make bench`); each prints its own table.

Each bench_*.py measures its own baseline in the same run and prints ratios against it, so the
numbers mean something on whatever machine runs them. Pass names to run only some:
`python bench/run_all.py decode checkout`.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in argv]
    missed: list[str] = []
    broken: list[str] = []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, str(script)], cwd=HERE.parent,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        fails = []
        for line in proc.stdout:
            print(line, end="", flush=True)
            if "FAIL" in line:
                fails.append(f"{script.stem}: {line.strip()}")
        code = proc.wait()
        print(f"--- {script.stem}: exit {code}, {time.monotonic() - started:.1f} s", flush=True)
        missed.extend(fails)
        if code and not fails:
            broken.append(script.stem)
    print("\n=== summary ===")
    print("\n".join(f"bar not met: {line}" for line in missed) or "every bar met")
    if broken:
        print(f"benchmarks that did not run to the end: {', '.join(broken)}")
    return 1 if missed or broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
