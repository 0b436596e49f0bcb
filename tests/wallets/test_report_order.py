"""Reports list their wallets in the registry's order (ZaloPay, MoMo, then the installed ones),
not by the letters of their keys: the X/Z report's text, its slip and head office's report."""

from __future__ import annotations

from pos_terminal import wallet_registry
from pos_terminal.sentences.reports import wallet_lines
from pos_terminal.tui.slips import wallet_slip_lines


def _totals(count: int) -> dict[str, int]:
    return {"count": count, "amount": count * 1_000, "refunds_count": 0, "refunds_amount": 0,
            "net_amount": count * 1_000}


BY_PROVIDER = {"kiwi": _totals(3), "momo": _totals(2), "zalopay": _totals(1)}  # as stored


def test_registry_order_then_unknown_wallets() -> None:
    assert wallet_registry.in_order(BY_PROVIDER) == ["zalopay", "momo", "kiwi"]


def test_the_x_report_and_its_slip_name_the_wallets_in_the_registry_s_order() -> None:
    lines = wallet_lines(BY_PROVIDER)
    assert [line.split()[0] for line in lines] == ["ZaloPay", "MoMo", "kiwi"]
    slip = [line.label for line in wallet_slip_lines(BY_PROVIDER)[1:]]
    assert slip == ["ZaloPay", "MoMo wallet", "kiwi"]
