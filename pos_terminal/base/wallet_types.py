"""What the terminal asks of a wallet provider and hears back, in the terminal's own words.

The checkout speaks to a wallet through `checkout.ports.WalletPort` in these types only: an
order to charge, a prepared charge, the answer to a charge or a status query (what it means for
the payment, with a reason), a refund and its answer, a hosted order (the customer pays on the
provider's page or QR code), the provider's bank list. A provider's package (one of
``pos_terminal.wallets``) maps its own requests and answers to and from them, so a new provider
is one new package beside the others that the checkout never names.

Each answer keeps the provider's own codes and words (``return_code``, ``sub_return_code``,
``service_message``) as the journal stores them, and its ``why``: a reason a front end words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from pos_terminal.base.reasons import Reason

#: The wallet of every payment and refund written before rows named their wallet (the released
#: journal and ledger migrations default `provider` to it): the journal's, the ledger's and the
#: checkout's one default.
FIRST_PROVIDER = "zalopay"


class WalletOutcome(StrEnum):
    """What an answer means for the payment (or refund) it is about: the vocabulary the checkout
    acts on, so that no provider's code is read outside its own package."""

    PAID = "paid"  # paid (refunded, for a refund)
    DECLINED = "declined"  # definitely not paid (no money moved)
    PROCESSING = "processing"  # the order exists and is not settled: ask again
    NOT_FOUND = "not_found"  # the provider has no record of it (yet)
    REFUSED_REQUEST = "refused_request"  # a status query itself was refused: says nothing
    UNKNOWN = "unknown"  # a send's failure after which the charge may still have happened
    #: the provider holds the money and waits for the terminal to capture or cancel it (a
    #: two-step payment): not paid yet, and never "not paid" (checkout/two_step.py)
    AUTHORISED = "authorised"


@dataclass(frozen=True)
class Item:
    """One line of a sale, as the journal keeps it (and the CLI's ``--item`` JSON gives it)."""

    itemid: str
    itemname: str
    itemprice: int
    itemquantity: int

    def as_wire(self) -> dict[str, object]:
        """The record the journal stores (its keys are the item's field names)."""
        return {
            "itemid": self.itemid,
            "itemname": self.itemname,
            "itemprice": self.itemprice,
            "itemquantity": self.itemquantity,
        }


@dataclass(frozen=True)
class Order:
    """A charge the terminal asks for: its id (the journal's ``app_trans_id``), the amount in
    VND, when it was made (Unix ms), the shop's customer name for it, what it is for."""

    order_id: str
    amount: int
    created_ms: int
    customer: str
    description: str = ""
    items: tuple[Item, ...] = ()


@dataclass(frozen=True)
class PreparedCharge:
    """A charge checked, signed and sealed by its provider, ready for its single send.

    ``payload_hash`` goes into the journal's intent before sending; ``sealed`` is the provider's
    own request, opaque to the checkout (it holds the payment code only encrypted, if at all)."""

    order: Order
    payload_hash: str
    sealed: object = field(repr=False)


@dataclass(frozen=True)
class WalletAnswer:
    """What every answer carries: its meaning, its reason, the provider's codes and words."""

    outcome: WalletOutcome
    why: Reason
    return_code: int
    sub_return_code: int | None
    service_message: str
    #: The one code that decides (for a sentence or a log line): the provider's.
    code: int


@dataclass(frozen=True)
class ChargeAnswer(WalletAnswer):
    """The answer to a charge or a status query about order ``order_id``.

    ``transaction_id`` is the provider's id of the charge (a refund needs it). ``duplicate``: the
    provider says the order exists already (so ask about it; never read it as "failed").
    ``problems``: what the provider finds wrong in its own answer (a success carrying a failure's
    detail): such an answer is never shown as paid."""

    order_id: str = ""
    transaction_id: str | None = None
    amount: int | None = None
    duplicate: bool = False
    problems: tuple[Reason, ...] = ()


@dataclass(frozen=True)
class Refund:
    """A refund the terminal asks for: its id (the journal's ``m_refund_id``), the provider's id
    of the charge it returns money from, the amount in VND, the text the customer reads, and the
    payment's own order id (a wallet that refunds by the merchant's order id names it)."""

    refund_id: str
    transaction_id: str
    amount: int
    description: str
    created_ms: int
    order_id: str


@dataclass(frozen=True)
class RefundAnswer(WalletAnswer):
    """The answer to a refund or a refund status query (PAID: refunded)."""

    refund_id: str = ""
    provider_refund_id: str | None = None


@dataclass(frozen=True)
class HostedOrder:
    """An order the customer pays on the provider's page or QR code (the UI's Show QR)."""

    order_id: str
    amount: int
    created_ms: int
    customer: str
    description: str = ""
    bank_code: str = ""
    redirect_url: str | None = None


@dataclass(frozen=True)
class HostedOrderAnswer:
    """A hosted order created: where the customer pays, and the provider's token for it."""

    return_code: int
    service_message: str
    order_url: str | None
    qr_code: str | None
    token: str | None


@dataclass(frozen=True)
class Bank:
    bankcode: str
    name: str
    displayorder: int
    pmcid: int  # the payment channel the bank belongs to
    minamount: int
    maxamount: int


@dataclass(frozen=True)
class BankList:
    banks_by_pmcid: dict[int, list[Bank]]  # channel ascending, banks by displayorder
    raw: Mapping[str, object] = field(repr=False)


class ServiceCheck(StrEnum):
    """Is the wallet service there, and does it accept this terminal's credentials?"""

    OK = "ok"                    # a signed call was accepted
    CREDENTIALS_WRONG = "wrong"  # the service refused the terminal's credentials
    UNREACHABLE = "unreachable"  # no answer (network, address, TLS)
    BUSY = "busy"                # answered, but refused for now (busy, maintenance)
    REFUSED = "refused"          # answered with something else: the detail says what


__all__ = ["Bank", "BankList", "ChargeAnswer", "HostedOrder", "HostedOrderAnswer", "Item",
           "Order", "PreparedCharge", "Refund", "RefundAnswer", "ServiceCheck", "WalletAnswer",
           "WalletOutcome"]
