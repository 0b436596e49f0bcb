"""Requests signed the way the spec says, written out literally in the tests.

Nothing here imports pos_terminal.wallets.zalopay: the mac inputs are spelled field by field from
the spec and the notes, and the payment code is encrypted with `cryptography` directly, so a
mistake the client and the emulator might share cannot make these tests pass.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

# config/default.toml, copied literally: the emulator must accept exactly these.
APP_ID = 2553
KEY1 = "emulator-test-key1-PcY4iZIKFCIdgZvA6ueMcMHHUbRLYjPL"
KEY2 = "emulator-test-key2-kLtgPl8HHhfvMuDHPwKfgfsY4Ydm9eIz"
PUBLIC_KEY_B64 = (
    "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC74f3WvuTmzOvmPgDwBiaLFsQ7dEyyd2pX7p+wuyTBUH7BU2/k7ZWcmDqL"
    "qtsEouULeD7bJV4WxFiRtQg7E9j85lJC3Ghw6t0oFTa6GrpuuYQ7WTmNzwx8r7Zo0CrOfgxOHrbfr1DHMnGcvrM7A4heae4j"
    "N1yVsi+y1BEKWU0P6QIDAQAB")
VN = timezone(timedelta(hours=7))
_counter = itertools.count(1)


def public_key() -> rsa.RSAPublicKey:
    key = serialization.load_der_public_key(base64.b64decode(PUBLIC_KEY_B64))
    assert isinstance(key, rsa.RSAPublicKey)
    return key


def hmac_hex(key: str, data: str) -> str:
    return hmac.new(key.encode(), data.encode(), hashlib.sha256).hexdigest()


def now_ms() -> int:
    return int(time.time() * 1000)


def vn_yymmdd(offset_days: int = 0) -> str:
    return (datetime.now(VN) + timedelta(days=offset_days)).strftime("%y%m%d")


def new_trans_id(tag: str = "t") -> str:
    return f"{vn_yymmdd()}_{tag}{next(_counter)}x{time.time_ns() % 10**9}"


def encrypt(code: str, urlsafe: bool = False) -> str:
    blob = public_key().encrypt(code.encode("ascii"), padding.PKCS1v15())
    return (base64.urlsafe_b64encode(blob) if urlsafe else base64.b64encode(blob)).decode()


@dataclass
class QuickPay:
    """One quick-pay order; ``form(generation)`` signs it over the literal field order."""

    code: str
    amount: str = "50000"
    app_trans_id: str = ""
    app_user: str = "counter-1"
    app_time: str = ""
    embed_data: str = "{}"
    item: str = "[]"
    description: str = "Coffee"
    app_id: str = str(APP_ID)
    key1: str = KEY1

    def __post_init__(self) -> None:
        self.app_trans_id = self.app_trans_id or new_trans_id()
        self.app_time = self.app_time or str(now_ms())

    def mac(self) -> str:
        # app id | trans id | user | amount | time | embed data | item | RAW payment code
        return hmac_hex(self.key1, "|".join([
            self.app_id, self.app_trans_id, self.app_user, self.amount, self.app_time,
            self.embed_data, self.item, self.code]))

    def form(self, generation: str, urlsafe: bool = False) -> dict[str, str]:
        encrypted = encrypt(self.code, urlsafe)
        if generation == "v2":
            return {"app_id": self.app_id, "app_trans_id": self.app_trans_id,
                    "app_user": self.app_user, "app_time": self.app_time, "amount": self.amount,
                    "embed_data": self.embed_data, "item": self.item,
                    "description": self.description, "payment_code": encrypted,
                    "mac": self.mac()}
        return {"appid": self.app_id, "apptransid": self.app_trans_id, "appuser": self.app_user,
                "apptime": self.app_time, "amount": self.amount, "embeddata": self.embed_data,
                "item": self.item, "description": self.description, "paymentcode": encrypted,
                "mac": self.mac()}


QUICK_PAY_PATH = {"v2": "/v2/quick_pay", "v001": "/v001/tpe/submitqrcodepay"}
QUERY_PATH = {"v2": "/v2/query", "v001": "/v001/tpe/getstatusbyapptransid"}


def post(base_url: str, path: str, form: dict[str, str]) -> dict[str, Any]:
    response = requests.post(base_url + path, data=form, timeout=10)
    assert response.status_code == 200, response.text
    data = response.json()
    assert isinstance(data, dict)
    return data


def query_form(generation: str, app_trans_id: str) -> dict[str, str]:
    mac = hmac_hex(KEY1, f"{APP_ID}|{app_trans_id}|{KEY1}")
    if generation == "v2":
        return {"app_id": str(APP_ID), "app_trans_id": app_trans_id, "mac": mac}
    return {"appid": str(APP_ID), "apptransid": app_trans_id, "mac": mac}


def query(base_url: str, generation: str, app_trans_id: str) -> dict[str, Any]:
    return post(base_url, QUERY_PATH[generation], query_form(generation, app_trans_id))


def code_of(base_url: str, wallet: str) -> str:
    wallets = requests.get(f"{base_url}/_emulator/wallets", timeout=5).json()["wallets"]
    return str(next(w["code"] for w in wallets if w["id"] == wallet))


def ledger(base_url: str) -> dict[str, Any]:
    data = requests.get(f"{base_url}/_emulator/ledger", timeout=5).json()
    assert isinstance(data, dict)
    return data


def outcome(generation: str, answer: dict[str, Any]) -> tuple[int, int | None]:
    """(return code, sub return code) of either generation; legacy has no sub code."""
    if generation == "v2":
        return answer["return_code"], answer["sub_return_code"]
    return answer["returncode"], None


def refused_code(generation: str, answer: dict[str, Any]) -> int:
    """The detailed negative code of a refusal in either generation."""
    if generation == "v2":
        assert answer["return_code"] == 2, answer
        return int(answer["sub_return_code"])
    return int(answer["returncode"])


def message(generation: str, answer: dict[str, Any]) -> str:
    return str(answer["sub_return_message" if generation == "v2" else "returnmessage"])


def wait_until(predicate: Any, timeout_s: float = 10.0, interval_s: float = 0.05) -> Any:
    """Poll until predicate() is truthy (returns it) or fail after timeout_s."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout_s} s: last {value!r}")
        time.sleep(interval_s)


def create_form(generation: str, amount: int = 80000, bank_code: str = "",
                embed_data: str = "{}", app_trans_id: str = "", description: str = "Order",
                extra: dict[str, str] | None = None, key1: str = KEY1) -> dict[str, str]:
    """A gateway order; mac = app id|trans id|user|amount|time|embed data|item (key1)."""
    trans_id = app_trans_id or new_trans_id("g")
    app_time, item, user = str(now_ms()), '[{"itemid":"1","itemname":"Tea","itemprice":1}]', "web"
    mac = hmac_hex(key1, "|".join([str(APP_ID), trans_id, user, str(amount), app_time,
                                   embed_data, item]))
    if generation == "v2":
        form = {"app_id": str(APP_ID), "app_trans_id": trans_id, "app_user": user,
                "app_time": app_time, "amount": str(amount), "embed_data": embed_data,
                "item": item, "description": description, "bank_code": bank_code, "mac": mac}
    else:
        form = {"appid": str(APP_ID), "apptransid": trans_id, "appuser": user,
                "apptime": app_time, "amount": str(amount), "embeddata": embed_data,
                "item": item, "description": description, "bankcode": bank_code, "mac": mac}
    form.update(extra or {})
    return form


CREATE_PATH = {"v2": "/v2/create", "v001": "/v001/tpe/createorder"}
REFUND_PATH = {"v2": "/v2/refund", "v001": "/v001/tpe/partialrefund"}
QUERY_REFUND_PATH = {"v2": "/v2/query_refund", "v001": "/v001/tpe/getpartialrefundstatus"}


def new_refund_id() -> str:
    return f"{vn_yymmdd()}_{APP_ID}_r{next(_counter)}x{time.time_ns() % 10**9}"


def refund_form(generation: str, zp_trans_id: str, amount: int, m_refund_id: str = "",
                description: str = "Refund", key1: str = KEY1) -> dict[str, str]:
    """mac = app id|zp trans id|amount|description|timestamp (key1)."""
    refund_id = m_refund_id or new_refund_id()
    timestamp = str(now_ms())
    mac = hmac_hex(key1, "|".join([str(APP_ID), zp_trans_id, str(amount), description,
                                   timestamp]))
    if generation == "v2":
        return {"app_id": str(APP_ID), "m_refund_id": refund_id, "zp_trans_id": zp_trans_id,
                "amount": str(amount), "timestamp": timestamp, "description": description,
                "mac": mac}
    return {"appid": str(APP_ID), "mrefundid": refund_id, "zptransid": zp_trans_id,
            "amount": str(amount), "timestamp": timestamp, "description": description,
            "mac": mac}


def query_refund_form(generation: str, m_refund_id: str) -> dict[str, str]:
    """mac = app id|m_refund_id|timestamp (key1)."""
    timestamp = str(now_ms())
    mac = hmac_hex(KEY1, f"{APP_ID}|{m_refund_id}|{timestamp}")
    if generation == "v2":
        return {"app_id": str(APP_ID), "m_refund_id": m_refund_id, "timestamp": timestamp,
                "mac": mac}
    return {"appid": str(APP_ID), "mrefundid": m_refund_id, "timestamp": timestamp, "mac": mac}


def redirect_checksum(params: dict[str, str]) -> str:
    """Rule 7: key2 over appid|apptransid|pmcid|bankcode|amount|discountamount|status."""
    return hmac_hex(KEY2, "|".join(params[name] for name in (
        "appid", "apptransid", "pmcid", "bankcode", "amount", "discountamount", "status")))
