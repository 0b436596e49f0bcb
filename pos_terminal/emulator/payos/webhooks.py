"""payOS's webhook as the emulator sends it (shared/spec/payos.md, "Webhook"), written from the
spec, not the terminal's checker.

`POST /confirm-webhook {"webhookUrl"}` registers the merchant's URL once a sample notice POSTed
there (payOS's docs' own sample, signed with the merchant's key) is answered 2xx. Then every
transfer the bank app makes to a request (in full, in part, after it closed) is POSTed there as
a signed notice: best effort, once, in a thread of its own with a short timeout, so the bank
app never waits for the merchant. Only to `[emulator] callback_hosts` (loopback by default).
Every attempt is kept (``GET /_emulator/payos/webhooks``)."""

from __future__ import annotations

import json
import threading
from typing import Any

import requests

from pos_terminal.emulator.guard import callback_allowed
from pos_terminal.emulator.payos import signatures

JSON = dict[str, Any]
TIMEOUT_S = 3.0
#: the sample of payOS's docs (its signature with the worked example's key: 412e915d…aa03)
SAMPLE: JSON = {
    "orderCode": 123, "amount": 3000, "description": "VQRIO123", "accountNumber": "12345678",
    "reference": "TF230204212323", "transactionDateTime": "2023-02-04 18:25:00",
    "currency": "VND", "paymentLinkId": "124c33293c43417ab7879e14c8d9eb18", "code": "00",
    "desc": "Thành công", "counterAccountBankId": "", "counterAccountBankName": "",
    "counterAccountName": "", "counterAccountNumber": "", "virtualAccountName": "",
    "virtualAccountNumber": ""}


def notice(key: str, data: JSON) -> JSON:
    """The webhook's body: payOS's envelope, `data` signed over its sorted keys."""
    return {"code": "00", "desc": "success", "success": True, "data": data,
            "signature": signatures.of_data(key, data)}


class WebhookSender:
    """The merchant's registered webhook URL and the notices sent to it."""

    def __init__(self, key: str, hosts: tuple[str, ...]) -> None:
        self.key = key
        self.hosts = hosts
        self._lock = threading.Lock()
        self.url: str | None = None
        self._deliveries: list[JSON] = []

    def _post(self, url: str, data: JSON) -> JSON:
        body = json.dumps(notice(self.key, data), ensure_ascii=False)
        sent: JSON = {"orderCode": data["orderCode"], "url": url, "body": body,
                      "status": None, "error": ""}
        try:
            answer = requests.post(url, data=body.encode("utf-8"), timeout=TIMEOUT_S,
                                   allow_redirects=False,  # no hop elsewhere
                                   headers={"Content-Type": "application/json"})
            sent["status"] = answer.status_code
        except requests.RequestException as exc:
            sent["error"] = type(exc).__name__
        with self._lock:
            self._deliveries.append(sent)
        return sent

    def confirm(self, url: str) -> str | None:
        """Register `url` once it answers the sample 2xx (blocking: call it off the event
        loop); else why not, and nothing registered."""
        if not callback_allowed(url, self.hosts):
            return "Webhook URL invalid: its host is not one of [emulator] callback_hosts"
        sent = self._post(url, SAMPLE)
        status = sent["status"]
        if not isinstance(status, int) or not 200 <= status < 300:
            return f"Webhook URL invalid: the sample got {sent['error'] or f'HTTP {status}'}"
        with self._lock:
            self.url = url
        return None

    def notify(self, data: JSON) -> None:
        """Send one notice to the registered URL, if any, in the background."""
        with self._lock:
            url = self.url
        if url is None:
            return
        threading.Thread(target=self._post, args=(url, data), name="payos-webhook",
                         daemon=True).start()

    def deliveries(self) -> list[JSON]:
        with self._lock:
            return list(self._deliveries)

    def reset(self) -> None:
        with self._lock:
            self.url = None
            self._deliveries.clear()
