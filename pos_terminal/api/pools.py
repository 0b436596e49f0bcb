"""Threads per kind of work, so that no kind starves another.

A payment (or a refund) blocks a thread while the wallet answers, which can take minutes when
the wallet stalls. FastAPI runs plain handlers in one shared pool of 40 threads: 40 hanging
payments used to leave nothing for a look-up by sale_ref, an abort, a token check or a new
payment. Payments and refunds now wait in pools of their own (`[api] max_payments` each);
everything else keeps the shared pool, where nothing waits on the wallet. Once every payment
thread is taken, a new payment is answered at once with 503 `busy` (nothing charged), never
left waiting."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from anyio import to_thread
from fastapi import Request

from pos_terminal.api.errors import ApiError
from pos_terminal.base.i18n import _

T = TypeVar("T")


class Pools:
    def __init__(self, max_payments: int) -> None:
        self.size = max_payments
        self._limiters: dict[str, anyio.CapacityLimiter] = {}

    def limiter(self, kind: str) -> anyio.CapacityLimiter:
        # created on first use, inside the server's event loop
        if kind not in self._limiters:
            self._limiters[kind] = anyio.CapacityLimiter(self.size)
        return self._limiters[kind]

    def busy(self, kind: str) -> int:
        """Threads of this kind at work now."""
        return int(self.limiter(kind).borrowed_tokens)


def pools_of(request: Request) -> Pools:
    pools = request.app.state.pools
    assert isinstance(pools, Pools)
    return pools


async def run_in(request: Request, kind: str, work: Callable[..., T], *args: Any,
                 **kwargs: Any) -> T:
    """`work` in a thread of the `kind` pool; 503 busy at once when every one is taken."""
    limiter = pools_of(request).limiter(kind)
    if limiter.available_tokens < 1:
        raise ApiError("busy", _("{count} payments or refunds are under way at this counter, "
                                 "its most ([api] max_payments): nothing was charged. Try again "
                                 "in a moment.").format(count=limiter.borrowed_tokens))
    return await to_thread.run_sync(functools.partial(work, *args, **kwargs),
                                    limiter=limiter, abandon_on_cancel=False)
