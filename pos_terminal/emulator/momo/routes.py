"""MoMo's part of the emulator: its paths, with the faults every JSON wallet's part has
(json_part.py: endpoints ``momo_pay``, ``momo_query``, ``momo_refund``, ``momo_confirm``; a rule
may name a MoMo customer as its wallet; ``refuse`` answers the ``return_code`` asked for, any
MoMo result code, nothing committed; ``answer_amount`` and ``answer_other_id`` alter a processed
request's answer) and its customers' routes. Mounted from MoMo's declaration (`PART`)."""

from __future__ import annotations

import time

from aiohttp import web

from pos_terminal.emulator.json_part import JsonRoutes, mount_json_routes
from pos_terminal.emulator.momo.customers import CUSTOMER_IDS
from pos_terminal.emulator.momo.service import JSON, MomoOptions, MomoService
from pos_terminal.emulator.parts import PartContext, PartService
from pos_terminal.emulator.pkcs1 import load_private_key

PATHS: dict[str, str] = {
    "/v2/gateway/api/pos": "momo_pay",
    "/v2/gateway/api/query": "momo_query",
    "/v2/gateway/api/refund": "momo_refund",
    "/v2/gateway/api/confirm": "momo_confirm",
}
ENDPOINT_NAMES = tuple(PATHS.values())


def _refusal(body: JSON, code: int) -> JSON:
    return {"partnerCode": body.get("partnerCode"), "orderId": body.get("orderId"),
            "requestId": body.get("requestId"), "resultCode": code,
            "message": f"result {code} (emulator fault)",
            "responseTime": int(time.time() * 1000)}


def _other_amount(answer: JSON) -> JSON | None:
    amount = answer.get("amount")
    return {**answer, "amount": amount + 1_000} if isinstance(amount, int) else None


ROUTES = JsonRoutes(
    wallet="momo", paths=PATHS,
    handlers=lambda momo: {"momo_pay": momo.pay, "momo_query": momo.query,
                           "momo_refund": momo.refund, "momo_confirm": momo.confirm},
    refusal=_refusal,
    bad_body={"resultCode": 20, "message": "the body must be a JSON object"},
    other_amount=_other_amount,
    other_id=lambda answer: {**answer, "orderId": f"{answer.get('orderId')}-other"},
)


class MomoPart:
    """MoMo's emulator part: its service (keys: the emulator's) behind its routes."""

    def mount(self, app: web.Application, context: PartContext) -> PartService:
        momo = MomoService(MomoOptions(processing_s=context.options.processing_s),
                           load_private_key(context.options.private_key_pem))
        return mount_json_routes(app, ROUTES, momo, context, CUSTOMER_IDS)


PART = MomoPart()
