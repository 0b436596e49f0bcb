"""payOS's webhook: the notice it POSTs when a transfer reaches a payment request
(shared/spec/payos.md, "Webhook"): ``{"code", "desc", "success", "data", "signature"}``, the
signature over `data`'s sorted keys with the checksum key (signing.py), compared in constant
time. A notice is never believed: all it gives the terminal is the orderCode to ask payOS about
(its status query decides). Declared as payOS's `webhook` (declaration.py), beside `register`,
its `register_webhook` (`POST /confirm-webhook`)."""

from __future__ import annotations

from typing import Any

from pos_terminal.base import strict_json
from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import NoticeRefused, ServiceRefused

from . import signing
from .client import ORDER_CODE_MAX, SUCCESS, WALLET_NAME


def _form(what: str) -> NoticeRefused:
    return NoticeRefused(Reason.of("notice.form", wallet=WALLET_NAME, what=what), "form")


def order_of(settings: Any, body: bytes) -> str:
    """The orderCode a notice signed with `[providers.payos] checksum_key` is about."""
    section = settings.providers.payos
    if section is None:
        raise NoticeRefused(Reason.of("notice.not_taken", wallet=WALLET_NAME), "no_webhook")
    try:
        notice = strict_json.loads(body)
    except ValueError:
        raise _form("JSON") from None
    if not isinstance(notice, dict):
        raise _form("JSON")
    data, signature = notice.get("data"), notice.get("signature")
    if not isinstance(data, dict) or not isinstance(signature, str):
        raise _form("data, signature")
    # the signature first: nothing of an unsigned notice is read further
    if not signing.valid_data(section.checksum_key.get_secret_value(), data, signature):
        raise NoticeRefused(Reason.of("notice.signature", wallet=WALLET_NAME), "signature")
    code = data.get("orderCode")
    if isinstance(code, bool) or not isinstance(code, int) or not 0 < code <= ORDER_CODE_MAX:
        raise _form("orderCode")
    return str(code)


def register(settings: Any, url: str) -> dict[str, str]:
    """Make `url` payOS's webhook for `[providers.payos]`'s channel (payOS POSTs its sample
    there first, which must be answered 2xx): what payOS says of it, or a WalletError."""
    from .declaration import client_for

    wallet = client_for(settings)
    try:
        answer = wallet.client.confirm_webhook(url)
    finally:
        wallet.close()
    data = answer.data
    if answer.code != SUCCESS or data is None:
        raise ServiceRefused(Reason.of("notice.registration_refused", wallet=WALLET_NAME,
                                       code=answer.code, detail=answer.desc[:200]), -1, None,
                             answer.desc[:200])
    return {"webhook_url": str(data.get("webhookUrl", url)),
            "account_name": str(data.get("accountName", "")),
            "account_number": str(data.get("accountNumber", "")),
            "bank": str(data.get("shortName") or data.get("name") or "")}
