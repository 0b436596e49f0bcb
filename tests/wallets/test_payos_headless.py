"""Headless `QR <amount> PROVIDER=payos` against the emulator's payOS part (real HTTP, a real
journal): paid in full; paid in part (never ok, what arrived and what is missing); expired;
a transfer after the QR was cancelled, found by RECONCILE."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.headless import serve
from tests.wallets.payos_help import bank_app, shown, with_payos


def _session(settings: Settings, lines: Iterable[str]) -> list[dict[str, Any]]:
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


def test_qr_expired_is_not_paid(settings: Settings, emulator: Any) -> None:
    bank_app(emulator, "expire")
    answers = _session(with_payos(settings, emulator), ["QR 30000 PROVIDER=payos", "QUIT"])
    qr = next(a for a in answers if a["command"] == "QR")
    assert not qr["ok"] and (qr["outcome"], qr["exit_code"], qr["money"]) == (
        "not_paid", 1, "customer"), qr
    assert "amount_paid" not in qr


def _late_transfer(emulator: Any, amount: int | None) -> None:
    [request] = shown(emulator)
    body = {} if amount is None else {"amount": amount}
    requests.post(f"{emulator.base_url}/_emulator/payos/requests/{request['orderCode']}/pay",
                  json=body, timeout=30).raise_for_status()


@pytest.mark.parametrize("late", [None, 12_000])
def test_a_transfer_after_the_qr_was_cancelled_is_found_never_not_paid(
        settings: Settings, emulator: Any, late: int | None) -> None:
    """Nobody paid while the register waited: the QR is cancelled, not paid. Then the
    customer's transfer (all of it, or part) lands: RECONCILE finds it and STATUS says it is
    the cashier's to handle, with the money at the shop; never "not paid"."""
    bank_app(emulator, "none")

    def lines() -> Iterator[str]:
        yield "QR 40000 REF=L-41 PROVIDER=payos"
        _late_transfer(emulator, late)  # between the lines: after the register gave up
        yield "RECONCILE"
        yield "STATUS REF=L-41"
        yield "QUIT"

    payos = with_payos(settings, emulator).replace_section("checkout", poll_deadline_s=1.0)
    answers = _session(payos, lines())
    qr = next(a for a in answers if a["command"] == "QR")
    assert not qr["ok"] and qr["outcome"] == "not_paid" and shown(emulator)[0][
        "status"] == "CANCELLED", qr
    status = next(a for a in answers if a["command"] == "STATUS")
    assert status["app_trans_id"] == qr["app_trans_id"]
    assert not status["ok"] and status["outcome"] not in ("not_paid", "paid"), status
    assert status["needs_review"] and status["money"] == ("shop" if late is None else "part")
    if late is None:
        assert status["late"] and status["outcome"] == "needs_review", status
    else:
        assert (status["amount_paid"], status["amount_missing"]) == (12_000, 28_000), status
