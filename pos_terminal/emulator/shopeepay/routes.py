"""ShopeePay's part of the emulator: its paths (endpoints ``spay_pay``, ``spay_check``,
``spay_refund`` for fault rules; ``refuse`` answers any errcode asked for, with no transaction),
every request's signature checked over its raw body, and its customers' routes. Mounted from
ShopeePay's declaration (`PART`)."""

from __future__ import annotations

from collections.abc import Mapping

from aiohttp import web

from pos_terminal.emulator.json_part import JsonRoutes, mount_json_routes
from pos_terminal.emulator.parts import PartContext, PartService
from pos_terminal.emulator.shopeepay import signatures as signing
from pos_terminal.emulator.shopeepay.customers import CUSTOMER_IDS
from pos_terminal.emulator.shopeepay.service import (
    JSON,
    ShopeePayOptions,
    ShopeePayService,
)

PATHS: dict[str, str] = {
    "/v3/merchant-host/transaction/payment/create": "spay_pay",
    "/v3/merchant-host/transaction/check": "spay_check",
    "/v3/merchant-host/transaction/refund/create-new": "spay_refund",
}
_OPTIONS = ShopeePayOptions()


def _signed(raw: bytes, headers: Mapping[str, str]) -> JSON | None:
    if headers.get(signing.CLIENT_HEADER) != _OPTIONS.client_id or not signing.valid(
            _OPTIONS.secret_key, raw, headers.get(signing.SIGNATURE_HEADER)):
        return {"errcode": 2, "debug_msg": "permission denied: client id or signature"}
    return None


def _other_amount(answer: JSON) -> JSON | None:
    transaction = answer.get("transaction")
    if not isinstance(transaction, dict):
        return None
    return {**answer, "transaction": {**transaction, "amount": transaction["amount"] + 100_000}}


def _other_id(answer: JSON) -> JSON:
    transaction = answer.get("transaction")
    if not isinstance(transaction, dict):
        return {**answer, "transaction": {"reference_id": "another-order", "status": 3}}
    return {**answer, "transaction": {
        **transaction, "reference_id": f"{transaction['reference_id']}-other"}}


ROUTES = JsonRoutes(
    wallet="shopeepay", paths=PATHS,
    handlers=lambda spay: {"spay_pay": spay.pay, "spay_check": spay.check,
                           "spay_refund": spay.refund},
    refusal=lambda body, code: ShopeePayService.refusal(body, code, "emulator fault"),
    bad_body={"errcode": 1, "debug_msg": "the body must be a JSON object"},
    other_amount=_other_amount, other_id=_other_id, check_request=_signed)


class ShopeePayPart:
    def mount(self, app: web.Application, context: PartContext) -> PartService:
        service = ShopeePayService(ShopeePayOptions(processing_s=context.options.processing_s))
        return mount_json_routes(app, ROUTES, service, context, CUSTOMER_IDS)


PART = ShopeePayPart()
