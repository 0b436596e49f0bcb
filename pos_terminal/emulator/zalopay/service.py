"""The service endpoints as pure request -> answer functions over the emulator's books.

Each function takes the request's fields, verifies them in the service's order (presence, app id,
payment code, mac, limits and formats, then business rules) and returns the JSON answer of the
generation used. Transport concerns (HTTP, faults) live in :mod:`pos_terminal.emulator.server`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa

from pos_terminal.emulator.options import EmulatorOptions
from pos_terminal.emulator.pkcs1 import load_private_key
from pos_terminal.emulator.zalopay import banks, wire
from pos_terminal.emulator.zalopay.callbacks import CallbackSender
from pos_terminal.emulator.zalopay.emvqr import emv_qr
from pos_terminal.emulator.zalopay.state import Books, Order, Refund
from pos_terminal.emulator.zalopay.verify import (
    Form,
    Refused,
    bad_data,
    check_app_id,
    check_embed_data,
    check_items,
    check_length,
    check_mac,
    check_refund_id,
    check_trans_id,
    check_user_ip,
    decrypt_payment_code,
    parse_amount,
    parse_millis,
)

WalletFault = Callable[[str], bool]
JSON = dict[str, Any]


class Service:
    """The emulated wallet service (both generations)."""

    def __init__(self, options: EmulatorOptions, books: Books) -> None:
        self.options = options
        self.books = books
        self.key: rsa.RSAPrivateKey = load_private_key(options.private_key_pem)
        self.callbacks = CallbackSender(options.key2, options.callback_retry_delays_s,
                                        options.callback_timeout_s, options.callback_hosts)

    # -- answers ----------------------------------------------------------------------------
    @staticmethod
    def refusal(generation: wire.Generation | None, refused: Refused,
                echo: Mapping[str, object] | None = None) -> JSON:
        if generation == "v2":
            return {"return_code": wire.V2_FAILED, "return_message": refused.message,
                    "sub_return_code": refused.code, "sub_return_message": refused.message,
                    "is_processing": False, **(echo or {})}
        return {"returncode": refused.code, "returnmessage": refused.message,
                "isprocessing": False, **(echo or {})}

    @staticmethod
    def order_answer(generation: wire.Generation, order: Order) -> JSON:
        final_failure = order.state in ("failed", "cancelled", "expired")
        if generation == "v2":
            if order.state == "succeeded":
                code, sub = wire.OK, wire.OK
            elif final_failure:
                code, sub = wire.V2_FAILED, order.code
            else:
                code, sub = wire.V2_PROCESSING, wire.V2_PROCESSING
            return {"return_code": code, "return_message": order.message,
                    "sub_return_code": sub, "sub_return_message": order.message,
                    "is_processing": order.state == "processing",
                    "zp_trans_id": order.zp_trans_id, "amount": order.amount,
                    "discount_amount": 0, "server_time": int(order.updated * 1000),
                    "app_trans_id": order.app_trans_id}
        if order.state == "succeeded":
            legacy = wire.OK
        elif final_failure:
            legacy = order.code
        else:
            legacy = wire.V001_PROCESSING
        return {"returncode": legacy, "returnmessage": order.message,
                "isprocessing": order.state in ("processing", "pending"),
                "zptransid": order.zp_trans_id, "amount": order.amount,
                "apptransid": order.app_trans_id}

    @staticmethod
    def refund_answer(generation: wire.Generation, refund: Refund) -> JSON:
        if generation == "v2":
            code = {"succeeded": wire.OK, "processing": wire.V2_PROCESSING,
                    "failed": wire.V2_FAILED}[refund.state]
            sub = refund.code if refund.state == "failed" else code
            return {"return_code": code, "return_message": refund.message,
                    "sub_return_code": sub, "sub_return_message": refund.message,
                    "refund_id": refund.refund_id, "m_refund_id": refund.m_refund_id,
                    "amount": refund.amount}
        legacy = {"succeeded": wire.OK, "processing": 2}.get(refund.state, refund.code)
        return {"returncode": legacy, "returnmessage": refund.message,
                "refundid": refund.refund_id, "mrefundid": refund.m_refund_id,
                "amount": refund.amount}

    # -- endpoints --------------------------------------------------------------------------
    def quick_pay(self, form: Form, now: float, wallet_fault: WalletFault) -> JSON | None:
        n, g = form.names, form.generation
        echo = _echo(form, n.app_trans_id)
        try:
            values = [form.required(name) for name in (
                n.app_id, n.app_trans_id, n.app_user, n.amount, n.app_time, n.embed_data, n.item)]
            encrypted = form.required(n.payment_code)
            form.required(n.mac)
            check_app_id(form, n.app_id, self.options.app_id)
            raw_code = decrypt_payment_code(n.payment_code, encrypted, self.key)
            check_mac(form, self.options.key1, [*values, raw_code])
            limits = wire.QUICK_PAY_LIMITS[g]
            _, app_trans_id, app_user, amount_text, app_time, embed_data, item = values
            description = form.optional(n.description)
            check_length(n.app_user, app_user, limits.app_user)  # "" accepted (samples)
            check_length(n.description, description, limits.description)
            check_embed_data(n.embed_data, embed_data, limits.embed_data,
                             empty_array_ok=g == "v001")
            check_items(n.item, item, limits.item)
            amount = parse_amount(n.amount, amount_text)
            parse_millis(n.app_time, app_time, now, self.options.app_time_tolerance_s)
            check_trans_id(n.app_trans_id, app_trans_id, now, limits.app_trans_id)
            user_ip = check_user_ip(form)
            order = self.books.quick_pay(
                generation=g, app_trans_id=app_trans_id, app_user=app_user, amount=amount,
                description=description, raw_code=raw_code, now=now, wallet_fault=wallet_fault,
                user_ip=user_ip)
        except Refused as refused:
            return self.refusal(g, refused, echo)
        return None if order is None else self.order_answer(g, order)

    def query(self, form: Form, now: float, wallet_fault: WalletFault) -> JSON | None:
        n, g = form.names, form.generation
        echo = _echo(form, n.app_trans_id)
        try:
            app_id = form.required(n.app_id)
            app_trans_id = form.required(n.app_trans_id)
            form.required(n.mac)
            check_app_id(form, n.app_id, self.options.app_id)
            check_mac(form, self.options.key1, [app_id, app_trans_id, self.options.key1])
            check_length(n.app_trans_id, app_trans_id, wire.QUICK_PAY_LIMITS[g].app_trans_id,
                         allow_empty=False)
            order = self.books.order(app_trans_id, now)
            if order is None:
                raise Refused(wire.NOT_FOUND,
                              f"order not found: no order with {n.app_trans_id} {app_trans_id}")
        except Refused as refused:
            return self.refusal(g, refused, echo)
        if order.wallet_id is not None and wallet_fault(order.wallet_id):
            return None
        return self.order_answer(g, order)

    def bank_list(self, fields: Mapping[str, str], now: float) -> JSON:
        form = Form(fields, "v001")
        try:
            app_id = form.required("appid")
            reqtime = form.required("reqtime")
            form.required("mac")
            check_app_id(form, "appid", self.options.app_id)
            check_mac(form, self.options.key1, [app_id, reqtime])
            parse_millis("reqtime", reqtime, now, self.options.app_time_tolerance_s)
        except Refused as refused:
            return {"returncode": refused.code, "returnmessage": refused.message}
        return {"returncode": wire.OK, "returnmessage": "", "banks": banks.banks_by_pmcid()}

    def create_order(self, form: Form, now: float, origin: str) -> JSON:
        n, g = form.names, form.generation
        echo = _echo(form, n.app_trans_id)
        try:
            values = [form.required(name) for name in (
                n.app_id, n.app_trans_id, n.app_user, n.amount, n.app_time, n.embed_data, n.item)]
            form.required(n.mac)
            check_app_id(form, n.app_id, self.options.app_id)
            check_mac(form, self.options.key1, values)
            limits = wire.CREATE_LIMITS[g]
            _, app_trans_id, app_user, amount_text, app_time, embed_text, item = values
            description = form.optional(n.description)
            bank_code = form.optional(n.bank_code)
            check_length(n.app_user, app_user, limits.app_user)  # "" accepted (samples)
            check_length(n.description, description, limits.description)
            check_length(n.bank_code, bank_code, wire.BANKCODE_MAX)
            embed_data = check_embed_data(n.embed_data, embed_text, limits.embed_data,
                                          empty_array_ok=g == "v001")
            check_items(n.item, item, limits.item)
            amount = parse_amount(n.amount, amount_text)
            parse_millis(n.app_time, app_time, now, self.options.app_time_tolerance_s)
            check_trans_id(n.app_trans_id, app_trans_id, now, limits.app_trans_id)
            expire_s = self._expire_s(form)
            self._check_bank(n.bank_code, bank_code, n.amount, amount)
            callback_url = self._callback_url(form)
            redirect = embed_data.get("redirecturl", "")
            if not isinstance(redirect, str) or (
                    redirect and not redirect.startswith(("http://", "https://"))):
                raise bad_data(n.embed_data, "redirecturl must be an http(s) URL")
            order = self.books.create_gateway_order(
                generation=g, app_trans_id=app_trans_id, app_user=app_user, amount=amount,
                description=description, bank_code=bank_code, embed_data=embed_data,
                expire_s=expire_s, now=now, app_time=int(app_time), embed_text=embed_text,
                item_text=item, callback_url=callback_url)
        except Refused as refused:
            return self.refusal(g, refused, echo)
        order_url = f"{origin}/gateway/order/{order.token}"
        if g == "v2":
            return {"return_code": wire.OK, "return_message": "success",
                    "sub_return_code": wire.OK, "sub_return_message": "",
                    "zp_trans_token": order.token, "order_url": order_url,
                    "order_token": order.token,
                    "qr_code": emv_qr(str(self.options.app_id), amount, app_trans_id),
                    "app_trans_id": app_trans_id}
        return {"returncode": wire.OK, "returnmessage": "", "zptranstoken": order.token,
                "orderurl": order_url, "apptransid": app_trans_id}

    def _callback_url(self, form: Form) -> str:
        """v2 ``callback_url`` (notes), else the URL registered for the application."""
        url = form.optional("callback_url") if form.generation == "v2" else ""
        if url and (len(url) > wire.CALLBACK_URL_MAX
                    or not url.startswith(("http://", "https://"))):
            raise bad_data("callback_url", f"must be an http(s) URL of at most "
                                           f"{wire.CALLBACK_URL_MAX} characters")
        # a host outside [emulator] callback_hosts is accepted, never called: the callback is
        # recorded as skipped (callbacks.py), as a real service accepts the order
        return url or self.options.callback_url

    @staticmethod
    def _expire_s(form: Form) -> int:
        if form.generation != "v2":
            return wire.DEFAULT_ORDER_EXPIRY_S
        text = form.optional("expire_duration_seconds")
        if not text:
            return wire.DEFAULT_ORDER_EXPIRY_S
        low, high = wire.EXPIRE_RANGE_S
        if not text.isdigit() or not low <= int(text) <= high:
            raise bad_data("expire_duration_seconds", f"must be a whole number of seconds "
                                                      f"between {low} and {high}")
        return int(text)

    @staticmethod
    def _check_bank(field: str, bank_code: str, amount_field: str, amount: int) -> None:
        if not bank_code:
            return
        bank = banks.BY_CODE.get(bank_code)
        if bank is None:
            raise bad_data(field, f"{bank_code!r} is not in the bank list")
        if not bank.minamount <= amount <= bank.maxamount:
            raise bad_data(amount_field, f"must be between {bank.minamount} and "
                                         f"{bank.maxamount} for {bank_code}")

    def refund(self, form: Form, now: float, wallet_fault: WalletFault) -> JSON | None:
        n, g = form.names, form.generation
        try:
            app_id = form.required(n.app_id)
            m_refund_id = form.required(n.m_refund_id)
            zp_text = form.required(n.zp_trans_id)
            amount_text = form.required(n.amount)
            timestamp = form.required(n.timestamp)
            description = form.required(n.description)
            form.required(n.mac)
            check_app_id(form, n.app_id, self.options.app_id)
            check_mac(form, self.options.key1,
                      [app_id, zp_text, amount_text, description, timestamp])
            check_refund_id(n.m_refund_id, m_refund_id, now, self.options.app_id)
            check_length(n.description, description, wire.REFUND_DESCRIPTION_MAX)
            if not zp_text.isdigit() or len(zp_text) > 30:
                raise bad_data(n.zp_trans_id, "must be the service's transaction number")
            amount = parse_amount(n.amount, amount_text)
            parse_millis(n.timestamp, timestamp, now, self.options.app_time_tolerance_s)
            order = self.books.by_zp.get(int(zp_text))
            if order is not None and order.wallet_id is not None and wallet_fault(
                    order.wallet_id):
                return None
            refund = self.books.refund(generation=g, m_refund_id=m_refund_id,
                                       zp_trans_id=int(zp_text), amount=amount,
                                       description=description, now=now)
        except Refused as refused:
            return self.refusal(g, refused, _echo(form, n.m_refund_id))
        return self.refund_answer(g, refund)

    def query_refund(self, form: Form, now: float, wallet_fault: WalletFault) -> JSON | None:
        n, g = form.names, form.generation
        try:
            app_id = form.required(n.app_id)
            m_refund_id = form.required(n.m_refund_id)
            timestamp = form.required(n.timestamp)
            form.required(n.mac)
            check_app_id(form, n.app_id, self.options.app_id)
            check_mac(form, self.options.key1, [app_id, m_refund_id, timestamp])
            check_length(n.m_refund_id, m_refund_id, wire.M_REFUND_ID_MAX, allow_empty=False)
            parse_millis(n.timestamp, timestamp, now, self.options.app_time_tolerance_s)
            refund = self.books.find_refund(m_refund_id, now)
            if refund is None:
                raise Refused(wire.NOT_FOUND,
                              f"refund not found: no refund with {n.m_refund_id} {m_refund_id}")
        except Refused as refused:
            return self.refusal(g, refused, _echo(form, n.m_refund_id))
        wallet_id = refund.order.wallet_id
        if wallet_id is not None and wallet_fault(wallet_id):
            return None
        return self.refund_answer(g, refund)


def _echo(form: Form, name: str) -> dict[str, str]:
    """The request's own id, echoed in a refusal when it was sent."""
    value = form.fields.get(name)
    return {} if value is None else {name: value}
