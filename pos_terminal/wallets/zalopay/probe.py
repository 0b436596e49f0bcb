"""Is the wallet service there, and does it accept this terminal's credentials? One signed call
(a status query, signed with key1, of an order that does not exist): "not found" means the
service checked the app id and the signature and accepted them."""

from __future__ import annotations

from typing import Protocol

from pos_terminal.base.wallet_types import ServiceCheck
from pos_terminal.wallets.errors import NoAnswer, NotSent, ServiceRefused, UnreadableAnswer

from .results import AnswerStatus, PaymentResult
from .returncodes import deciding_code

#: Codes that say the request was refused for now (busy, maintenance), not the credentials.
_BUSY = frozenset({-429, -500, -999})


class StatusQuery(Protocol):
    """The ZaloPay client, or a wrapper of it."""

    def query_status(self, app_trans_id: str) -> PaymentResult: ...


def check_service(client: StatusQuery, probe_app_trans_id: str) -> tuple[ServiceCheck, str]:
    """The service's state and a detail (its code and message, or why it did not answer)."""
    try:
        result = client.query_status(probe_app_trans_id)
    except (NoAnswer, NotSent) as exc:
        return ServiceCheck.UNREACHABLE, exc.message
    except UnreadableAnswer as exc:
        return ServiceCheck.REFUSED, exc.message
    except ServiceRefused as exc:
        code = deciding_code(exc.return_code, exc.sub_return_code)
        return _by_code(code, exc.message), exc.message
    code = deciding_code(result.return_code, result.sub_return_code)
    detail = f"code {code}: {result.message}".rstrip(": ")
    if result.outcome not in (AnswerStatus.FAILED, AnswerStatus.UNDECIDED):
        # not found (or, by chance, an answer): accepted
        return ServiceCheck.OK, detail
    return _by_code(code, detail), detail


def _by_code(code: int, detail: str) -> ServiceCheck:
    if code == -402:
        return ServiceCheck.CREDENTIALS_WRONG
    if code in _BUSY:
        return ServiceCheck.BUSY
    return ServiceCheck.REFUSED
