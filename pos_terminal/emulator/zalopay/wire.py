"""The emulator's own reading of the wire: paths, field names, limits and mac inputs.

Deliberately written apart from ``pos_terminal.wallets.zalopay`` (the client): the emulator
re-derives every name and rule from the spec and the notes, so a mistake shared by both sides
cannot hide.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Generation = Literal["v2", "v001"]

# Return codes (notes, "Return codes seen in public material").
OK = 1
V2_FAILED = 2
V2_PROCESSING = 3
V001_PROCESSING = 10
TX_EXPIRED = -54
INSUFFICIENT = -63
DUPLICATE = -68
BAD_TRANS_ID = -92
NOT_FOUND = -101
BANK_ERROR = -217
CODE_EXPIRED = -322
USER_CANCELLED = -329
BAD_DATA = -401
BAD_SIGNATURE = -402
RATE_LIMITED = -429
SYSTEM_ERROR = -500


@dataclass(frozen=True)
class Names:
    """Request field names of one generation."""

    app_id: str
    app_trans_id: str
    app_user: str
    app_time: str
    amount: str
    embed_data: str
    item: str
    description: str
    payment_code: str
    bank_code: str
    m_refund_id: str
    zp_trans_id: str
    timestamp: str
    mac: str = "mac"


NAMES: dict[Generation, Names] = {
    "v2": Names("app_id", "app_trans_id", "app_user", "app_time", "amount", "embed_data", "item",
                "description", "payment_code", "bank_code", "m_refund_id", "zp_trans_id",
                "timestamp"),
    "v001": Names("appid", "apptransid", "appuser", "apptime", "amount", "embeddata", "item",
                  "description", "paymentcode", "bankcode", "mrefundid", "zptransid",
                  "timestamp"),
}

# Endpoint name (as used by the control API and the request counters) for every path.
ENDPOINTS: dict[str, tuple[str, Generation | None]] = {
    "/v2/quick_pay": ("quick_pay", "v2"),
    "/v001/tpe/submitqrcodepay": ("quick_pay", "v001"),
    "/v2/query": ("query", "v2"),
    "/v001/tpe/getstatusbyapptransid": ("query", "v001"),
    "/v2/create": ("create", "v2"),
    "/v001/tpe/createorder": ("create", "v001"),
    "/v2/refund": ("refund", "v2"),
    "/v001/tpe/partialrefund": ("refund", "v001"),
    "/v2/query_refund": ("query_refund", "v2"),
    "/v001/tpe/getpartialrefundstatus": ("query_refund", "v001"),
    "/api/getlistmerchantbanks": ("banks", None),
}
#: This service's calls, named for faults and request counts (every wallet's: emulator/wallets.py).
ENDPOINT_NAMES = ("quick_pay", "query", "banks", "create", "refund", "query_refund")


@dataclass(frozen=True)
class Limits:
    app_user: int = 50
    app_trans_id: int = 40
    embed_data: int = 1024
    item: int = 2048
    description: int = 100


# Limits per endpoint, generation and field. The seed spec's table (item 2048) is the legacy
# quick pay's; the service's v2 quick-pay documentation gives item 1024.
QUICK_PAY_LIMITS: dict[Generation, Limits] = {
    "v001": Limits(),
    "v2": Limits(item=1024),
}
CREATE_LIMITS: dict[Generation, Limits] = {
    "v001": Limits(),
    "v2": Limits(embed_data=2048, description=256),
}
M_REFUND_ID_MAX = 45
REFUND_DESCRIPTION_MAX = 100
EXPIRE_RANGE_S = (300, 2_592_000)
DEFAULT_ORDER_EXPIRY_S = 900
BANKCODE_MAX = 20
USER_IP_NAMES = ("userip", "userIP")  # quick pay, both generations; not in the mac
CALLBACK_URL_MAX = 1024

PMC_NAMES = {36: "Visa/Master/JCB", 37: "Bank Account", 38: "Wallet", 39: "ATM",
             41: "Visa/Master Debit"}
REDIRECT_FIELDS = ("appid", "apptransid", "pmcid", "bankcode", "amount", "discountamount",
                   "status")
