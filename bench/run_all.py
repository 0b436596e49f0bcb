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
    failed = []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        started = time.monotonic()
        code = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        print(f"--- {script.stem}: exit {code}, {time.monotonic() - started:.1f} s", flush=True)
        if code:
            failed.append(script.stem)
    if failed:
        print(f"\nbenchmarks that failed to run: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
