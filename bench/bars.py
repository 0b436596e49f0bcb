"""The pass/fail bars a benchmark prints at its end, and the exit code they make."""

from __future__ import annotations

from collections.abc import Sequence

#: (what is required, whether it was met, the measured value as shown)
Bar = tuple[str, bool, str]


def report_bars(title: str, bars: Sequence[Bar]) -> int:
    """Print each bar PASS or FAIL under `title`; 0 when all pass, else 1."""
    print(f"\n{title}:")
    for label, ok, value in bars:
        print(f"  [{'PASS' if ok else 'FAIL'}] {label}: {value}")
    return 0 if all(ok for _, ok, _ in bars) else 1
