"""Every wire name, path and limit of both API generations, in one place.

The legacy generation (``v001``) spells fields without underscores (``apptransid``); the current
one (``v2``) with them (``app_trans_id``). Code elsewhere uses the logical attribute names below
and asks :func:`wire` for the spelling of the generation in use. Facts the notes mark as
unconfirmed live here too, so they are easy to change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Generation = Literal["v2", "v001"]
GENERATIONS: tuple[Generation, ...] = ("v2", "v001")


@dataclass(frozen=True)
class WireNames:
    """Field names on the wire. ``None``: the generation has no such field."""

    # requests
    app_id: str
    app_trans_id: str
    app_user: str
    app_time: str
    amount: str
    embed_data: str
    item: str
    description: str
    payment_code: str
    user_ip: str
    bank_code: str
    mac: str
    m_refund_id: str
    zp_trans_id: str
    timestamp: str
    expire_duration_seconds: str | None
    title: str | None
    callback_url: str | None
    # answers
    return_code: str
    return_message: str
    sub_return_code: str | None
    sub_return_message: str | None
    is_processing: str
    refund_id: str
    order_url: str
    zp_trans_token: str
    order_token: str | None
    qr_code: str | None


@dataclass(frozen=True)
class Paths:
    """Endpoint paths, relative to ``base_url``."""

    quick_pay: str
    query: str
    create: str
    refund: str
    query_refund: str


@dataclass(frozen=True)
class Limits:
    """Maximum lengths (characters) of request fields."""

    app_user: int
    app_trans_id: int
    embed_data: int
    item: int
    description: int


@dataclass(frozen=True)
class WireSpec:
    generation: Generation
    names: WireNames
    paths: Paths
    quick_pay_limits: Limits
    create_limits: Limits


V2_NAMES = WireNames(
    app_id="app_id",
    app_trans_id="app_trans_id",
    app_user="app_user",
    app_time="app_time",
    amount="amount",
    embed_data="embed_data",
    item="item",
    description="description",
    payment_code="payment_code",
    user_ip="userip",
    bank_code="bank_code",
    mac="mac",
    m_refund_id="m_refund_id",
    zp_trans_id="zp_trans_id",
    timestamp="timestamp",
    expire_duration_seconds="expire_duration_seconds",
    title="title",
    callback_url="callback_url",
    return_code="return_code",
    return_message="return_message",
    sub_return_code="sub_return_code",
    sub_return_message="sub_return_message",
    is_processing="is_processing",
    refund_id="refund_id",
    order_url="order_url",
    zp_trans_token="zp_trans_token",  # noqa: S106 (a field name)
    order_token="order_token",  # noqa: S106 (a field name)
    qr_code="qr_code",
)

V001_NAMES = WireNames(
    app_id="appid",
    app_trans_id="apptransid",
    app_user="appuser",
    app_time="apptime",
    amount="amount",
    embed_data="embeddata",
    item="item",
    description="description",
    payment_code="paymentcode",
    user_ip="userip",
    bank_code="bankcode",
    mac="mac",
    m_refund_id="mrefundid",
    zp_trans_id="zptransid",
    timestamp="timestamp",
    expire_duration_seconds=None,
    title=None,
    callback_url=None,
    return_code="returncode",
    return_message="returnmessage",
    sub_return_code=None,
    sub_return_message=None,
    is_processing="isprocessing",
    refund_id="refundid",
    order_url="orderurl",
    zp_trans_token="zptranstoken",  # noqa: S106 (a field name)
    order_token=None,
    qr_code=None,
)

V2_PATHS = Paths(
    quick_pay="/v2/quick_pay",
    query="/v2/query",
    create="/v2/create",
    refund="/v2/refund",
    query_refund="/v2/query_refund",
)

V001_PATHS = Paths(
    quick_pay="/v001/tpe/submitqrcodepay",
    query="/v001/tpe/getstatusbyapptransid",
    create="/v001/tpe/createorder",
    refund="/v001/tpe/partialrefund",
    query_refund="/v001/tpe/getpartialrefundstatus",
)

# Field limits per endpoint (a WireSpec's quick_pay_limits / create_limits). The seed spec's table
# (item 2048) is the legacy quick pay's; the service's v2 quick-pay documentation gives item 1024.
QUICK_PAY_LIMITS = Limits(app_user=50, app_trans_id=40, embed_data=1024, item=2048, description=100)
V2_QUICK_PAY_LIMITS = Limits(app_user=50, app_trans_id=40, embed_data=1024, item=1024,
                             description=100)
V2_CREATE_LIMITS = Limits(app_user=50, app_trans_id=40, embed_data=2048, item=2048, description=256)

WIRE: dict[str, WireSpec] = {
    "v2": WireSpec("v2", V2_NAMES, V2_PATHS, V2_QUICK_PAY_LIMITS, V2_CREATE_LIMITS),
    "v001": WireSpec("v001", V001_NAMES, V001_PATHS, QUICK_PAY_LIMITS, QUICK_PAY_LIMITS),
}

M_REFUND_ID_MAX = 45
REFUND_DESCRIPTION_MAX = 100
EXPIRE_DURATION_RANGE_S = (300, 2_592_000)  # v2 create: expire_duration_seconds

# Bank list (gateway host), redirect and callback use the same names in both generations.
BANK_LIST_PATH = "/api/getlistmerchantbanks"
BANK_LIST_APP_ID = "appid"
BANK_LIST_REQTIME = "reqtime"
BANK_LIST_MAC = "mac"
BANK_LIST_RETURN_CODE = "returncode"
BANK_LIST_RETURN_MESSAGE = "returnmessage"
BANK_LIST_BANKS = "banks"
BANK_FIELDS = ("bankcode", "name", "displayorder", "pmcid", "minamount", "maxamount")

REDIRECT_FIELDS = (
    "appid", "apptransid", "pmcid", "bankcode", "amount", "discountamount", "status"
)
REDIRECT_CHECKSUM = "checksum"

CALLBACK_DATA = "data"
CALLBACK_MAC = "mac"
CALLBACK_TYPE = "type"


def wire(generation: str) -> WireSpec:
    """The wire spelling, paths and limits of ``generation`` ("v2" or "v001")."""
    try:
        return WIRE[generation]
    except KeyError:
        raise ValueError(
            f"unknown API generation {generation!r}: expected one of {', '.join(GENERATIONS)}"
        ) from None
