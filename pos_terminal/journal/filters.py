"""The WHERE clause of the streamed lists (payments, refunds): by creation time and state."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from pos_terminal.journal.states import PaymentState, RefundState


def created_filter(since_ms: int | None, until_ms: int | None,
                   states: Collection[PaymentState] | Collection[RefundState] | None,
                   provider: str | None = None) -> tuple[list[str], list[Any]]:
    """Conditions and arguments for rows created in [since_ms, until_ms) in one of `states`,
    of wallet `provider` (None: every wallet)."""
    where: list[str] = []
    args: list[Any] = []
    if since_ms is not None:
        where.append("created_ms >= ?")
        args.append(since_ms)
    if until_ms is not None:
        where.append("created_ms < ?")
        args.append(until_ms)
    if states:
        # unary +: the day, not the state, picks the index (states span every day)
        where.append(f"+state IN ({','.join('?' for _ in states)})")
        args.extend(s.value for s in states)
    if provider is not None:
        where.append("+provider = ?")  # the day picks the index here too
        args.append(provider)
    return where, args
