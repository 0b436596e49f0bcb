"""Headless `QR <amount> PROVIDER=payos` against the emulator's payOS part (real HTTP, a real
journal): paid in full; paid in part (never ok, what arrived and what is missing)."""

from __future__ import annotations

import io
import json
from typing import Any

from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.headless import serve
from tests.wallets.payos_help import bank_app, shown, with_payos


def _session(settings: Settings, lines: list[str]) -> list[dict[str, Any]]:
    out = io.StringIO()
    with open_checkout(settings) as co:
        serve(Counter(settings, co), lambda: None, lines, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_qr_paid_in_full(settings: Settings, emulator: Any) -> None:
    bank_app(emulator, "pay")
    answers = _session(with_payos(settings, emulator), ["QR 45000 PROVIDER=payos", "QUIT"])
    qr = next(a for a in answers if a["command"] == "QR")
    assert qr["ok"] and qr["provider"] == "payos" and qr["outcome"] == "paid", qr
    assert qr["qr_content"].startswith("000201")


def test_qr_paid_in_part_is_not_ok(settings: Settings, emulator: Any) -> None:
    bank_app(emulator, "pay", 10_000)
    payos = with_payos(settings, emulator).replace_section("checkout", poll_deadline_s=2.0)
    answers = _session(payos, ["QR 45000 PROVIDER=payos", "QUIT"])
    qr = next(a for a in answers if a["command"] == "QR")
    assert not qr["ok"] and qr["outcome"] != "paid", qr
    assert (qr["amount_paid"], qr["amount_missing"]) == (10_000, 35_000)


def test_qr_with_ref_pays_the_sale_once(settings: Settings, emulator: Any) -> None:
    bank_app(emulator, "pay")
    answers = _session(with_payos(settings, emulator), [
        "QR 45000 REF=S-41 PROVIDER=payos", "QR 45000 REF=S-41 PROVIDER=payos",
        "STATUS REF=S-41", "QUIT"])
    first, again, status = (a for a in answers if a["command"] in ("QR", "STATUS"))
    assert first["ok"] and first["sale_ref"] == "S-41" and first["outcome"] == "paid", first
    assert first["qr_content"].startswith("000201")
    assert again["app_trans_id"] == first["app_trans_id"] and again["ok"], again
    assert status["app_trans_id"] == first["app_trans_id"], status
    assert len(shown(emulator)) == 1  # the same sale again made no second request
