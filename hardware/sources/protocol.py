"""The ScanSource protocol every source implements (docs/CONTRACTS.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from hardware.events import ScanEvent, SourceStatus


@runtime_checkable
class ScanSource(Protocol):
    spec: str

    def start(self, on_event: Callable[[ScanEvent], None],
              on_status: Callable[[SourceStatus], None] | None = None) -> None: ...

    def stop(self) -> None: ...

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def status(self) -> SourceStatus: ...

    def latest_frame(self) -> np.ndarray | None: ...
