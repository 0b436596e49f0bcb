"""One result type per kind of answer, the same for both generations (the adapter, adapter.py,
maps them to the terminal's own types, base/wallet_types.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import Bank, BankList, WalletOutcome
from pos_terminal.wallets.code_table import CodeClass

from .returncodes import deciding_code


class AnswerStatus(StrEnum):
    """What the service's answer says of an order or a refund, as read (what it means for the
    payment is the adapter's `WalletOutcome`)."""

    SUCCEEDED = "succeeded"
    PROCESSING = "processing"
    FAILED = "failed"  # final, and proves nothing moved
    NOT_FOUND = "not_found"
    UNDECIDED = "undecided"  # a refusal, a system error, a code not published: proves nothing


#: What each class of the code table means for the payment or refund the answer is about.
MEANINGS: dict[CodeClass, WalletOutcome] = {
    CodeClass.PAID: WalletOutcome.PAID,
    CodeClass.REFUNDED: WalletOutcome.PAID,
    CodeClass.OK: WalletOutcome.PAID,
    CodeClass.NOT_CHARGED: WalletOutcome.DECLINED,
    CodeClass.PROCESSING: WalletOutcome.PROCESSING,
    CodeClass.NOT_FOUND: WalletOutcome.NOT_FOUND,
    CodeClass.NO_INFORMATION: WalletOutcome.REFUSED_REQUEST,
    CodeClass.MAY_HAVE_CHARGED: WalletOutcome.UNKNOWN,
}


@dataclass(frozen=True)
class PaymentResult:
    """The answer to a quick pay or a status query.

    ``app_trans_id`` is always the id of the request this answers. A duplicate app_trans_id
    (-68) comes back as PROCESSING with ``duplicate=True``: the order exists, so query it; it
    must never be read as "failed".
    """

    app_trans_id: str
    outcome: AnswerStatus
    return_code: int
    sub_return_code: int | None
    message: str  # the service's own text
    why: Reason  # what happened (pos_terminal.sentences words it, with the next step)
    zp_trans_id: str | None
    amount: int | None
    is_processing: bool
    raw: Mapping[str, object] = field(repr=False)
    duplicate: bool = False
    #: What the code table says this answer proves (code_table.py).
    cls: CodeClass = CodeClass.NO_INFORMATION

    @property
    def code(self) -> int:
        """The deciding code (returncodes.deciding_code), for messages and logs."""
        return deciding_code(self.return_code, self.sub_return_code)

    @property
    def meaning(self) -> WalletOutcome:
        """What this answer means for the payment (the table's class, for the call it answers)."""
        return MEANINGS[self.cls]


@dataclass(frozen=True)
class RefundResult:
    m_refund_id: str
    outcome: AnswerStatus  # SUCCEEDED means refunded
    return_code: int
    sub_return_code: int | None
    message: str
    why: Reason
    refund_id: str | None
    raw: Mapping[str, object] = field(repr=False)
    cls: CodeClass = CodeClass.NO_INFORMATION

    @property
    def code(self) -> int:
        return deciding_code(self.return_code, self.sub_return_code)

    @property
    def meaning(self) -> WalletOutcome:
        """What this answer means for the refund (the table's class, for the call it answers)."""
        return MEANINGS[self.cls]


PMC_NAMES: dict[int, str] = {
    36: "Visa/Master/JCB",
    37: "Bank Account",
    38: "Wallet",
    39: "ATM",
    41: "Visa/Master Debit",
}


def pmc_name(pmcid: int) -> str:
    return PMC_NAMES.get(pmcid, f"Channel {pmcid}")


@dataclass(frozen=True)
class GatewayOrderResult:
    app_trans_id: str
    return_code: int
    message: str
    order_url: str | None
    zp_trans_token: str | None
    qr_code: str | None
    raw: Mapping[str, object] = field(repr=False)


@dataclass(frozen=True)
class RedirectResult:
    """A gateway redirect, verified. Typed fields are None when ``valid`` is False."""

    valid: bool
    reason: str  # "" when valid; otherwise why it was refused
    appid: int | None = None
    apptransid: str | None = None
    pmcid: int | None = None
    bankcode: str | None = None
    amount: int | None = None
    discountamount: int | None = None
    status: int | None = None


@dataclass(frozen=True)
class CallbackResult:
    """A server-to-server callback, verified. ``reply`` is the JSON body to answer with."""

    valid: bool
    reason: str
    data: Mapping[str, object] | None  # the parsed ``data`` JSON when valid
    type: int | None
    reply: Mapping[str, object]

    def _value(self, *names: str) -> object:
        data = self.data or {}
        return next((data[name] for name in names if name in data), None)

    @property
    def app_trans_id(self) -> str | None:
        value = self._value("app_trans_id", "apptransid")
        return value if isinstance(value, str) else None

    @property
    def amount(self) -> int | None:
        value = self._value("amount")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def zp_trans_id(self) -> str | None:
        """The service's transaction number, as text (it is a JSON number in the data)."""
        value = self._value("zp_trans_id", "zptransid")
        return str(value) if isinstance(value, int | str) and not isinstance(value, bool) else None


__all__ = [
    "AnswerStatus",
    "Bank",
    "BankList",
    "CallbackResult",
    "GatewayOrderResult",
    "PaymentResult",
    "RedirectResult",
    "RefundResult",
    "WalletOutcome",
    "pmc_name",
]
