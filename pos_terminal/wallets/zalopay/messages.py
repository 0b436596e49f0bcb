"""Typed requests of both generations, their validation and their signed form bodies.

``item`` and ``embed_data`` are serialised once (compact JSON, UTF-8 kept, stable key order);
that exact string is both signed and sent. ``validate()`` refuses a request before anything is
sent, with a FieldError naming the wire field of the generation in use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from pos_terminal.base.codes import CodeProblem, code_problem
from pos_terminal.base.wallet_types import Item
from pos_terminal.wallets.errors import FieldError

from . import signing
from .fields import (
    BANK_LIST_APP_ID,
    BANK_LIST_MAC,
    BANK_LIST_REQTIME,
    EXPIRE_DURATION_RANGE_S,
    M_REFUND_ID_MAX,
    REFUND_DESCRIPTION_MAX,
    Limits,
    WireNames,
    wire,
)
from .ids import vn_date_prefix
from .userip import check_user_ip

# The unique part after ``yymmdd_``: what our ids and the samples use, nothing that needs escaping.
_APP_TRANS_ID = re.compile(r"(\d{6})_[A-Za-z0-9_-]+")
_M_REFUND_ID = re.compile(r"(\d{6})_(\d+)_[A-Za-z0-9_-]+")
# Unix ms: anything below this is seconds by mistake (it is September 2001 in ms).
_MIN_MS = 1_000_000_000_000


def to_json(value: object) -> str:
    """The one serialisation of item/embed_data: compact, UTF-8 kept, keys in the given order."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


EMBED_DATA_KEYS = (
    "merchantinfo",
    "redirecturl",
    "columninfo",
    "promotioninfo",
    "zlppaymentid",
    "bankgroup",
)


@dataclass(frozen=True)
class EmbedData:
    """embed_data with its known keys; ``extra`` carries keys the service adds later."""

    merchantinfo: str | None = None
    redirecturl: str | None = None
    columninfo: str | None = None  # a string holding JSON {"<column>": "<value>"}
    promotioninfo: str | None = None  # a string holding JSON {"campaigncode": "<code>"}
    zlppaymentid: str | None = None
    bankgroup: str | None = None
    extra: Mapping[str, str] = field(default_factory=dict)

    def as_wire(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for key in EMBED_DATA_KEYS:
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        for key in sorted(self.extra):
            out[key] = self.extra[key]
        return out


def item_json(items: tuple[Item, ...] | list[Item]) -> str:
    return to_json([it.as_wire() for it in items])


def embed_data_json(embed: EmbedData) -> str:
    return to_json(embed.as_wire())


# --- validation helpers -----------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_text(name: str, value: object, limit: int, *, required: bool = False) -> None:
    if not isinstance(value, str):
        raise FieldError(name, f"{name} must be text, not {type(value).__name__}")
    if required and not value.strip():
        raise FieldError(name, f"{name} is empty; it is required")
    if len(value) > limit:
        raise FieldError(name, f"{name} is {len(value)} characters long; the limit is {limit}")


def _check_amount(name: str, value: object) -> None:
    if not _is_int(value):
        raise FieldError(name, f"{name} must be a whole number of VND, not {value!r}")
    assert isinstance(value, int)
    if value <= 0:
        raise FieldError(name, f"{name} must be positive, not {value}")


def _check_ms(name: str, value: object) -> None:
    if not _is_int(value):
        raise FieldError(name, f"{name} must be Unix milliseconds as a whole number, not {value!r}")
    assert isinstance(value, int)
    if value < _MIN_MS:
        raise FieldError(name, f"{name} {value} is not Unix milliseconds (seconds by mistake?)")


def _check_date_prefix(name: str, value: str, prefix: str, at_ms: int, time_name: str) -> None:
    try:
        datetime.strptime(prefix, "%y%m%d")
    except ValueError:
        raise FieldError(name, f"{name} {value!r} does not start with a real yymmdd date") from None
    expected = vn_date_prefix(at_ms)
    if prefix != expected:
        raise FieldError(
            name,
            f"{name} {value!r} is dated {prefix} but {time_name} falls on {expected} in Vietnam "
            "time (GMT+7): the date must be the order's day in GMT+7",
        )


def check_app_trans_id(name: str, value: object, at_ms: int, time_name: str, limit: int) -> None:
    _check_text(name, value, limit, required=True)
    assert isinstance(value, str)
    match = _APP_TRANS_ID.fullmatch(value)
    if match is None:
        raise FieldError(
            name, f"{name} {value!r} must look like yymmdd_<letters, digits, _ or ->"
        )
    _check_date_prefix(name, value, match.group(1), at_ms, time_name)


def _check_items(name: str, items: object) -> None:
    if not isinstance(items, tuple | list) or not all(isinstance(i, Item) for i in items):
        raise FieldError(name, f"{name} must be a sequence of Item")
    for it in items:
        if not isinstance(it.itemid, str) or not isinstance(it.itemname, str):
            raise FieldError(name, f"{name}: itemid and itemname must be text")
        if not _is_int(it.itemprice) or it.itemprice < 0:
            raise FieldError(name, f"{name}: itemprice must be a whole number >= 0")
        if not _is_int(it.itemquantity) or it.itemquantity < 1:
            raise FieldError(name, f"{name}: itemquantity must be a whole number >= 1")


def _check_embed(name: str, embed: object) -> None:
    if not isinstance(embed, EmbedData):
        raise FieldError(name, f"{name} must be EmbedData")
    for key in EMBED_DATA_KEYS:
        value = getattr(embed, key)
        if value is not None and not isinstance(value, str):
            raise FieldError(name, f"{name}: {key} must be text")
    for key, value in embed.extra.items():
        if key in EMBED_DATA_KEYS:
            raise FieldError(name, f"{name}: {key} is a known key; set it directly, not in extra")
        if not isinstance(key, str) or not isinstance(value, str):
            raise FieldError(name, f"{name}: extra keys and values must be text")


def _check_order_common(
    names: WireNames,
    limits: Limits,
    app_trans_id: object,
    app_user: object,
    app_time: object,
    amount: object,
    description: object,
    items: object,
    embed_data: object,
) -> None:
    _check_ms(names.app_time, app_time)
    assert isinstance(app_time, int)
    check_app_trans_id(names.app_trans_id, app_trans_id, app_time, names.app_time,
                       limits.app_trans_id)
    _check_text(names.app_user, app_user, limits.app_user, required=True)
    _check_amount(names.amount, amount)
    _check_text(names.description, description, limits.description)
    _check_items(names.item, items)
    _check_embed(names.embed_data, embed_data)
    assert isinstance(items, tuple | list) and isinstance(embed_data, EmbedData)
    item_text = item_json(items)
    if len(item_text) > limits.item:
        raise FieldError(
            names.item,
            f"{names.item} is {len(item_text)} characters long; the limit is {limits.item}",
        )
    embed_text = embed_data_json(embed_data)
    if len(embed_text) > limits.embed_data:
        raise FieldError(
            names.embed_data,
            f"{names.embed_data} is {len(embed_text)} characters long; "
            f"the limit is {limits.embed_data}",
        )


def check_payment_code(name: str, code: object) -> None:
    """A payment code is opaque printable ASCII of any length; never echo it in a message."""
    problem = code_problem(code)
    if problem is CodeProblem.EMPTY and not (isinstance(code, str) and code):
        raise FieldError(name, f"{name} is empty: scan the customer's payment code")
    if problem is not None:
        raise FieldError(
            name, f"{name} holds characters a payment code never has: scan it again"
        )


# --- requests ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Order:
    """What a quick pay and a gateway order both carry, checked alike."""

    app_trans_id: str
    app_user: str
    app_time: int
    amount: int
    description: str = ""
    items: tuple[Item, ...] = ()
    embed_data: EmbedData = field(default_factory=EmbedData)

    def _check_common(self, names: WireNames, limits: Limits) -> None:
        _check_order_common(
            names, limits, self.app_trans_id, self.app_user, self.app_time, self.amount,
            self.description, self.items, self.embed_data,
        )


@dataclass(frozen=True)
class QuickPayOrder(_Order):
    def validate(self, generation: str) -> None:
        spec = wire(generation)
        self._check_common(spec.names, spec.quick_pay_limits)


@dataclass(frozen=True)
class GatewayOrder(_Order):
    bank_code: str = ""
    title: str = ""  # current generation only
    expire_duration_seconds: int | None = None  # current generation only
    callback_url: str = ""  # current generation only

    def validate(self, generation: str) -> None:
        spec = wire(generation)
        names = spec.names
        self._check_common(names, spec.create_limits)
        _check_text(names.bank_code, self.bank_code, 64)
        v2_only = (("title", self.title), ("callback_url", self.callback_url))
        if names.title is None:
            for name, value in v2_only:
                if value:
                    raise FieldError(name, f"the legacy generation has no {name}")
            if self.expire_duration_seconds is not None:
                raise FieldError(
                    "expire_duration_seconds",
                    "the legacy generation has no expire_duration_seconds",
                )
            return
        _check_text("title", self.title, 256)
        _check_text("callback_url", self.callback_url, 1024)
        if self.expire_duration_seconds is not None:
            low, high = EXPIRE_DURATION_RANGE_S
            seconds = self.expire_duration_seconds
            if not _is_int(seconds) or not low <= seconds <= high:
                raise FieldError(
                    "expire_duration_seconds",
                    f"expire_duration_seconds must be a whole number from {low} to {high}, "
                    f"not {seconds!r}",
                )


@dataclass(frozen=True)
class RefundRequest:
    m_refund_id: str
    zp_trans_id: str
    amount: int
    description: str
    timestamp: int

    def validate(self, generation: str, app_id: int | None = None) -> None:
        names = wire(generation).names
        _check_ms(names.timestamp, self.timestamp)
        name = names.m_refund_id
        _check_text(name, self.m_refund_id, M_REFUND_ID_MAX, required=True)
        match = _M_REFUND_ID.fullmatch(self.m_refund_id)
        if match is None:
            raise FieldError(
                name, f"{name} {self.m_refund_id!r} must look like yymmdd_<appid>_<unique>"
            )
        if app_id is not None and match.group(2) != str(app_id):
            raise FieldError(
                name, f"{name} {self.m_refund_id!r} must carry this app id ({app_id})"
            )
        _check_date_prefix(name, self.m_refund_id, match.group(1), self.timestamp, names.timestamp)
        zp = names.zp_trans_id
        if not isinstance(self.zp_trans_id, str) or not self.zp_trans_id.isdigit():
            raise FieldError(zp, f"{zp} must be the service's transaction number (digits)")
        _check_amount(names.amount, self.amount)
        _check_text(names.description, self.description, REFUND_DESCRIPTION_MAX)


# --- signed form bodies (pure: no I/O, no clock) --------------------------------------------


def _order_fields(names: WireNames, app_id: int, order: _Order,
                  embed: str, item: str) -> dict[str, str]:
    """The fields a quick pay and a gateway order both send, in the order they go out."""
    return {
        names.app_id: str(app_id),
        names.app_trans_id: order.app_trans_id,
        names.app_user: order.app_user,
        names.app_time: str(order.app_time),
        names.amount: str(order.amount),
        names.embed_data: embed,
        names.item: item,
        names.description: order.description,
    }


def quick_pay_form(
    order: QuickPayOrder,
    generation: str,
    app_id: int,
    key1: str,
    raw_code: str,
    encrypted_code: str,
    user_ip: str = "",
) -> dict[str, str]:
    """The validated, signed quick-pay form. The mac covers the RAW code; the form carries the
    ciphertext. ``user_ip`` (when given) goes out as ``userip``; it is not in the mac."""
    names = wire(generation).names
    order.validate(generation)
    check_payment_code(names.payment_code, raw_code)
    if user_ip:
        try:
            check_user_ip(user_ip)
        except ValueError:
            raise FieldError(names.user_ip, f"{names.user_ip} {user_ip!r} is not an IP "
                                            "address: fix [terminal] user_ip") from None
    item = item_json(order.items)
    embed = embed_data_json(order.embed_data)
    mac = signing.quick_pay_mac(
        key1, app_id, order.app_trans_id, order.app_user, order.amount, order.app_time,
        embed, item, raw_code,
    )
    form = {**_order_fields(names, app_id, order, embed, item),
            names.payment_code: encrypted_code}
    if user_ip:
        form[names.user_ip] = user_ip
    form[names.mac] = mac
    return form


def query_form(generation: str, app_id: int, key1: str, app_trans_id: str) -> dict[str, str]:
    names = wire(generation).names
    _check_text(names.app_trans_id, app_trans_id, wire(generation).quick_pay_limits.app_trans_id,
                required=True)
    return {
        names.app_id: str(app_id),
        names.app_trans_id: app_trans_id,
        names.mac: signing.query_mac(key1, app_id, app_trans_id),
    }


def create_order_form(
    order: GatewayOrder, generation: str, app_id: int, key1: str
) -> dict[str, str]:
    names = wire(generation).names
    order.validate(generation)
    item = item_json(order.items)
    embed = embed_data_json(order.embed_data)
    form = {**_order_fields(names, app_id, order, embed, item),
            names.bank_code: order.bank_code}
    if names.title is not None and order.title:
        form[names.title] = order.title
    if names.expire_duration_seconds is not None and order.expire_duration_seconds is not None:
        form[names.expire_duration_seconds] = str(order.expire_duration_seconds)
    if names.callback_url is not None and order.callback_url:
        form[names.callback_url] = order.callback_url
    form[names.mac] = signing.create_order_mac(
        key1, app_id, order.app_trans_id, order.app_user, order.amount, order.app_time,
        embed, item,
    )
    return form


def refund_form(req: RefundRequest, generation: str, app_id: int, key1: str) -> dict[str, str]:
    names = wire(generation).names
    req.validate(generation, app_id)
    return {
        names.app_id: str(app_id),
        names.m_refund_id: req.m_refund_id,
        names.zp_trans_id: req.zp_trans_id,
        names.amount: str(req.amount),
        names.timestamp: str(req.timestamp),
        names.description: req.description,
        names.mac: signing.refund_mac(
            key1, app_id, req.zp_trans_id, req.amount, req.description, req.timestamp
        ),
    }


def refund_status_form(
    generation: str, app_id: int, key1: str, m_refund_id: str, timestamp: int
) -> dict[str, str]:
    names = wire(generation).names
    _check_ms(names.timestamp, timestamp)
    _check_text(names.m_refund_id, m_refund_id, M_REFUND_ID_MAX, required=True)
    return {
        names.app_id: str(app_id),
        names.m_refund_id: m_refund_id,
        names.timestamp: str(timestamp),
        names.mac: signing.refund_status_mac(key1, app_id, m_refund_id, timestamp),
    }


def bank_list_form(app_id: int, key1: str, reqtime: int) -> dict[str, str]:
    _check_ms(BANK_LIST_REQTIME, reqtime)
    return {
        BANK_LIST_APP_ID: str(app_id),
        BANK_LIST_REQTIME: str(reqtime),
        BANK_LIST_MAC: signing.bank_list_mac(key1, app_id, reqtime),
    }
