"""`cashier`, `shift`, supervisor-authorised `refund` / `override`, `pay --cashier` and
`report --by`, through click against the emulator with a real journal."""

from __future__ import annotations

import json
from typing import Any

from pos_terminal.config import Settings
from pos_terminal.journal import Journal
from tests.checkout.conftest import add_fault, ledger, wallet_code


def _paid(cli: Any, emulator: Any, *extra: str, stdin: str | None = None) -> dict[str, Any]:
    result = cli("pay", "--amount", "20000", "--code", wallet_code(emulator, "an"), "--json",
                 *extra, stdin=stdin)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _staff(cli: Any) -> None:
    boss = cli("cashier", "add", "boss", "--name", "Bà Chủ", "--supervisor", "--pin-stdin",
               stdin="9753\n")
    assert boss.exit_code == 0
    # adding the first supervisor is what the "no supervisor is set up" warning advises
    assert "warning" not in boss.stderr
    added = cli("cashier", "add", "ann", "--name", "Ann Tran", "--by", "boss", "--pin-stdin",
                stdin="9753\n2468\n")
    assert added.exit_code == 0, added.stderr
    assert added.stdout == "added cashier ann (Ann Tran)\n"


def test_a_first_plain_cashier_draws_the_no_supervisor_warning(cli: Any) -> None:
    added = cli("cashier", "add", "ann", "--name", "Ann Tran", "--pin-stdin", stdin="2468\n")
    assert added.exit_code == 0
    assert "no supervisor is set up" in added.stderr and "--supervisor" in added.stderr


def test_add_list_never_shows_hashes(cli: Any, settings: Settings) -> None:
    _staff(cli)
    listed = cli("cashier", "list", "--json")
    assert listed.exit_code == 0
    data = json.loads(listed.stdout)
    assert [(c["id"], c["role"], c["name"]) for c in data["cashiers"]] == [
        ("boss", "supervisor", "Bà Chủ"), ("ann", "cashier", "Ann Tran")]
    assert "pin" not in listed.stdout and "scrypt" not in listed.stdout
    bad = cli("cashier", "add", "cat", "--name", "Cat", "--by", "boss", "--pin-stdin",
              stdin="9753\n12ab\n")
    assert bad.exit_code == 2
    assert "A PIN is 4 to 8 digits" in bad.stderr
    unauthorised = cli("cashier", "add", "eve", "--name", "Eve", "--supervisor", "--pin-stdin",
                       stdin="1111\n")
    assert unauthorised.exit_code == 2
    assert "a supervisor must authorise" in unauthorised.stderr
    assert [c["id"] for c in json.loads(cli("cashier", "list", "--json").stdout)[
        "cashiers"]] == ["boss", "ann"]


def test_refund_needs_supervisor_once_one_exists(cli: Any, emulator: Any,
                                                 settings: Settings) -> None:
    _staff(cli)
    paid = _paid(cli, emulator)
    refused = cli("refund", paid["app_trans_id"], "--json")
    assert refused.exit_code == 2
    assert "add --supervisor ID" in refused.stderr and "Nothing was sent" in refused.stderr
    wrong = cli("refund", paid["app_trans_id"], "--supervisor", "boss", "--pin-stdin",
                stdin="1111\n")
    assert wrong.exit_code == 2
    assert "Wrong PIN for 'boss'" in wrong.stderr
    not_boss = cli("refund", paid["app_trans_id"], "--supervisor", "ann", "--pin-stdin",
                   stdin="2468\n")
    assert not_boss.exit_code == 2
    assert "is a cashier, not a supervisor" in not_boss.stderr
    assert ledger(emulator)["refunds"] == []  # nothing was sent
    ok = cli("refund", paid["app_trans_id"], "--supervisor", "boss", "--pin-stdin", "--json",
             stdin="9753\n")
    assert ok.exit_code == 0, ok.stderr
    refund = json.loads(ok.stdout)
    # nobody took the payment and nobody was named as asking: only the authoriser is known
    assert (refund["cashier_id"], refund["authorised_by"]) == (None, "boss")
    assert len(ledger(emulator)["refunds"]) == 1


def test_no_cashiers_keeps_refund_open_with_a_warning(cli: Any, emulator: Any) -> None:
    paid = _paid(cli, emulator)
    result = cli("refund", paid["app_trans_id"], "--amount", "5000")
    assert result.exit_code == 0, result.stderr
    assert "warning: no supervisor is set up, so anyone can refund" in result.stderr


def test_override_is_authorised_and_journaled(cli: Any, emulator: Any,
                                              settings: Settings) -> None:
    _staff(cli)
    add_fault(emulator, endpoint="quick_pay", mode="http500")
    add_fault(emulator, endpoint="query", mode="http500", count=0)
    pending = cli("pay", "--amount", "5000", "--code", wallet_code(emulator, "binh"),
                  "--deadline", "0.2", "--json")
    assert pending.exit_code == 3
    app_trans_id = json.loads(pending.stdout)["app_trans_id"]
    refused = cli("override", app_trans_id, "--mark", "failed", "--reason", "portal")
    assert refused.exit_code == 2
    done = cli("override", app_trans_id, "--mark", "failed", "--reason", "portal: none",
               "--supervisor", "boss", "--pin-stdin", stdin="9753\n")
    assert done.exit_code == 1, done.stderr
    with Journal.open(settings.terminal.journal) as journal:
        event = journal.events(app_trans_id)[-1]
    assert (event.kind, event.cashier_id, event.who) == ("override", "boss", "boss")


def test_pay_with_cashier_and_pin(cli: Any, emulator: Any, settings: Settings) -> None:
    _staff(cli)
    paid = _paid(cli, emulator, "--cashier", "ann", "--pin-stdin", stdin="2468\n")
    assert paid["cashier_id"] == "ann"
    before = len(ledger(emulator)["charges"])
    wrong = cli("pay", "--amount", "1000", "--code", wallet_code(emulator, "an"), "--cashier",
                "ann", "--pin-stdin", "--json", stdin="1111\n")
    assert wrong.exit_code == 2
    data = json.loads(wrong.stdout)
    assert (data["state"], data["field"]) == ("failed", "cashier")
    assert "Wrong PIN for 'ann'" in data["message"] and "Nothing was charged" in data["message"]
    unknown = cli("pay", "--amount", "1000", "--code", wallet_code(emulator, "an"),
                  "--cashier", "zed")
    assert unknown.exit_code == 2 and "no cashier 'zed'" in unknown.stderr
    assert len(ledger(emulator)["charges"]) == before


def test_lockout_and_unlock_through_the_cli(cli: Any) -> None:
    _staff(cli)
    for _ in range(4):
        assert cli("shift", "open", "ann", "--pin-stdin", stdin="0000\n").exit_code == 2
    locked = cli("shift", "open", "ann", "--pin-stdin", stdin="0000\n")
    assert locked.exit_code == 2
    assert "5 wrong PINs in a row, so it is locked until" in locked.stderr
    still = cli("shift", "open", "ann", "--pin-stdin", stdin="2468\n")
    assert still.exit_code == 2 and "is locked" in still.stderr
    assert cli("cashier", "unlock", "ann", "--supervisor", "boss", "--pin-stdin",
               stdin="9753\n").exit_code == 0
    opened = cli("shift", "open", "ann", "--pin-stdin", stdin="2468\n")
    assert opened.exit_code == 0, opened.stderr
    assert opened.stdout.startswith("shift 1 open for ann since ")


def test_a_new_pin_is_its_own_event_with_its_supervisor(cli: Any) -> None:
    """`cashier set-pin` (authorised) journals `pin_changed` by the supervisor, not an unlock;
    `cashier events` shows it in the language asked, never the PIN."""
    _staff(cli)
    changed = cli("cashier", "set-pin", "ann", "--supervisor", "boss", "--pin-stdin",
                  stdin="9753\n1357\n")
    assert changed.exit_code == 0, changed.stderr
    assert changed.stdout == "ann (Ann Tran) has a new PIN\n"
    assert cli("shift", "open", "ann", "--pin-stdin", stdin="1357\n").exit_code == 0
    events = json.loads(cli("cashier", "events", "ann", "--json").stdout)["events"]
    assert [(e["kind"], e["detail"]) for e in events] == [
        ("added", "cashier"), ("pin_changed", "boss"), ("pin_ok", ""),
        ("shift_opened", "shift 1")]
    english = cli("cashier", "events", "ann", "--language", "en").stdout.splitlines()
    assert [line.split("  ", 1)[1] for line in english] == [
        "added (cashier)", "PIN changed (by boss)", "signed in", "shift opened (1)"]
    vietnamese = cli("cashier", "events", "ann", "--language", "vi").stdout.splitlines()
    assert [line.split("  ", 1)[1] for line in vietnamese] == [
        "được thêm (thu ngân)", "đổi mã PIN (quản lý boss)", "đăng nhập",
        "mở ca (1)"]
    for shown in (english, vietnamese):
        assert not any("1357" in line or "9753" in line for line in shown)


def test_reports_by_cashier_and_shift(cli: Any, emulator: Any) -> None:
    _staff(cli)
    assert cli("shift", "open", "ann", "--pin-stdin", stdin="2468\n").exit_code == 0
    _paid(cli, emulator, "--cashier", "ann")
    _paid(cli, emulator)
    assert cli("shift", "close", "ann").exit_code == 0
    by_cashier = cli("report", "x", "--by", "cashier", "--json")
    groups = {g["key"]: g["sales_amount"] for g in json.loads(by_cashier.stdout)["groups"]}
    assert groups == {"": 20_000, "ann": 20_000}
    text = cli("report", "x", "--by", "shift").stdout
    assert "shift 1: Ann Tran (ann), " in text
    z = cli("report", "z", "--by", "cashier", "--json")
    data = json.loads(z.stdout)
    assert data["sales_amount"] == 40_000
    assert sorted(g["net_amount"] for g in data["groups"]) == [20_000, 20_000]
    shown = json.loads(cli("report", "z", "--show", "1", "--by", "shift", "--json").stdout)
    assert [(g["cashier_id"], g["sales_count"]) for g in shown["groups"]] == [("ann", 1)]
