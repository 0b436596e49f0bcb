"""The headless payment commands against the emulator, through click, with a real journal."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from pos_terminal.cli import money_cmds
from pos_terminal.cli.common import add_config_option
from pos_terminal.config import Settings
from tests.checkout.conftest import charged, ledger, quick_pay_requests, wallet_code, write_config


@pytest.fixture
def cli(settings: Settings, tmp_path: Path):  # type: ignore[no-untyped-def]
    group = click.Group("pos-terminal")
    money_cmds.register(group)
    add_config_option(group)
    config = write_config(settings, tmp_path / "pos.toml")
    runner = CliRunner()  # click >= 8.2 keeps stdout and stderr apart

    def run(*args: str) -> Any:
        return runner.invoke(group, [*args, "--config", str(config)], catch_exceptions=False)

    return run


def _json(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_pay_json_contract(cli: Any, emulator: Any) -> None:
    result = cli("pay", "--amount", "12000", "--code", wallet_code(emulator, "an"),
                 "--description", "Tea", "--item",
                 '{"itemid":"t1","itemname":"Tea","itemprice":12000,"itemquantity":1}', "--json")
    assert result.exit_code == 0, result.stderr
    data = _json(result)
    assert {"state", "app_trans_id", "amount", "return_code", "message", "zp_trans_id"} <= set(data)
    assert (data["state"], data["amount"], data["return_code"]) == ("succeeded", 12000, 1)
    assert data["items"] == [{"itemid": "t1", "itemname": "Tea", "itemprice": 12000,
                              "itemquantity": 1}]
    [charge] = charged(emulator, data["app_trans_id"])
    assert str(charge["zp_trans_id"]) == data["zp_trans_id"]


def test_pay_exit_codes_and_human_output(cli: Any, emulator: Any) -> None:
    ok = cli("pay", "--amount", "12000", "--code", wallet_code(emulator, "an"))
    assert ok.exit_code == 0
    assert ok.stdout.startswith("SUCCEEDED  12.000 ₫  ")
    declined = cli("pay", "--amount", "5000", "--code", wallet_code(emulator, "dung"), "--json")
    assert declined.exit_code == 1
    assert _json(declined)["state"] == "failed"
    assert _json(declined)["message"].startswith("The customer's wallet balance is too low.")
    slow = cli("pay", "--amount", "5000", "--code", wallet_code(emulator, "binh"),
               "--deadline", "0.05")
    assert slow.exit_code == 3
    assert slow.stdout.startswith("PROCESSING  5.000 ₫")
    assert "... processing" in slow.stderr
    reconciled = cli("reconcile", "--wait", "5", "--json")
    assert reconciled.exit_code == 0
    report = _json(reconciled)
    assert (report["checked"], report["resolved"], report["still_open"]) == (1, 1, 0)
    assert report["payments"][0]["state"] == "succeeded"


def test_code_already_charged_is_refused(cli: Any, emulator: Any) -> None:
    code = wallet_code(emulator, "an")
    first = cli("pay", "--amount", "1000", "--code", code)
    assert first.exit_code == 0
    again = cli("pay", "--amount", "1000", "--code", code, "--json")
    assert again.exit_code == 1
    data = _json(again)
    assert (data["state"], data["refused"]) == ("failed", "charged")
    assert code not in again.stdout + again.stderr
    human = cli("pay", "--amount", "1000", "--code", code)
    assert human.exit_code == 1
    # One result line on stdout, as for every other result.
    assert human.stdout.startswith("FAILED  1.000 ₫  not sent (refused: charged, payment ")
    assert "already charged on this terminal" in human.stdout
    assert code not in human.stdout + human.stderr
    assert quick_pay_requests(emulator) == 1


def test_code_in_flight_answers_with_the_payment_in_flight(cli: Any, emulator: Any) -> None:
    """Exit 3 with THAT payment (not "failed", not exit 1): its charge may still land."""
    code = wallet_code(emulator, "binh")
    first = _json(cli("pay", "--amount", "5000", "--code", code, "--deadline", "0", "--json"))
    assert first["state"] == "processing"
    tid = first["app_trans_id"]
    again = cli("pay", "--amount", "5000", "--code", code, "--json")
    assert again.exit_code == 3
    data = _json(again)
    assert (data["state"], data["app_trans_id"], data["refused"]) == ("processing", tid,
                                                                      "in_flight")
    assert data["amount"] == 5000
    assert f"already being charged in payment {tid}" in data["message"]
    assert f"`pos-terminal status {tid}`" in data["message"]
    human = cli("pay", "--amount", "5000", "--code", code)
    assert human.exit_code == 3
    assert human.stdout.startswith(f"PROCESSING  5.000 ₫  {tid}")
    assert code not in again.stdout + human.stdout + human.stderr
    assert quick_pay_requests(emulator) == 1


def test_an_unresolved_result_says_what_to_run(cli: Any, emulator: Any) -> None:
    slow = cli("pay", "--amount", "5000", "--code", wallet_code(emulator, "binh"),
               "--deadline", "0.05", "--json")
    assert slow.exit_code == 3
    data = _json(slow)
    # Issue 14: exit 3 is the cashier giving up: the payment is marked abandoned, and a late
    # charge is returned automatically ([checkout] late_success = "refund", the default).
    assert "background" not in data["message"]
    assert data["abandoned"] is True
    assert data["message"] == (
        "Outcome still unknown: ask the customer to pay another way. Run `pos-terminal "
        f"reconcile` (or `pos-terminal status {data['app_trans_id']}`) to keep checking it; if "
        "the wallet charges it after all, the charge is returned to the customer automatically.")


CONTRACT_KEYS = {"state", "app_trans_id", "amount", "return_code", "message", "zp_trans_id"}


@pytest.mark.parametrize(("args", "field", "amount", "needle"), [
    (["--amount", "abc"], "amount", None, "is not a whole number"),
    (["--amount", "5", "--code", "123"], "code",  5, "--code has 3 characters"),
    (["--amount", "5", "--code", "12345678901234567a"], "code", 5, "--code holds characters"),
    (["--amount", "25000", "--item", '{"itemid":"1","itemname":"Tea","itemprice":12000,'
      '"itemquantity":2}'], "item", 25000, "add up to 24.000 ₫ but --amount is 25.000 ₫"),
    (["--amount", "5", "--description", "two\nlines"], "description", 5,
     "--description holds a control character (U+000A"),
    (["--amount", "5", "--scanner", "wedge"], "scanner", 5,
     "a keyboard-wedge scanner types into the terminal UI"),
])
def test_refused_input_prints_the_contract_keys_and_sends_nothing(
        cli: Any, emulator: Any, args: list[str], field: str, amount: int | None,
        needle: str) -> None:
    if "--code" not in args and "--scanner" not in args:
        args = [*args, "--code", wallet_code(emulator, "an")]
    result = cli("pay", *args, "--json")
    assert result.exit_code == 2, result.stderr
    data = _json(result)
    assert CONTRACT_KEYS | {"error", "field"} <= set(data)
    assert (data["state"], data["app_trans_id"], data["return_code"], data["zp_trans_id"]) == (
        "failed", None, None, None)
    assert (data["field"], data["amount"]) == (field, amount)
    assert needle in data["message"] and data["message"] == data["error"]
    assert needle in result.stderr
    assert quick_pay_requests(emulator) == 0


def test_pay_help_shows_usable_scanner_examples(cli: Any) -> None:
    text = cli("pay", "--help").stdout
    assert "evdev:/dev/input/event3" in text and "pos-terminal pay --amount 50000" in text
    assert "(e.g. camera:0, wedge" not in text


@pytest.mark.parametrize("args", [
    ["pay", "--amount", "5000", "--code", "123456789012345678", "--deadline", "-1"],
    ["pay", "--amount", "5000", "--scanner", "camera:0", "--scan-timeout", "0"],
    ["journal", "list", "--limit", "0"],
    ["journal", "list", "--limit", "-1"],
    ["journal", "list", "--from", "2026-11-22", "--to", "2026-11-21"],
    ["journal", "list", "--state", "refunding"],
    ["reconcile", "--wait", "-5"],
    ["report", "z", "--show", "0"],
])
def test_values_that_make_no_sense_are_refused(cli: Any, emulator: Any,
                                               args: list[str]) -> None:
    result = cli(*args)
    assert result.exit_code == 2
    assert result.stderr.strip()
    assert quick_pay_requests(emulator) == 0


def test_from_after_to_names_both(cli: Any) -> None:
    result = cli("journal", "list", "--from", "2026-11-22", "--to", "2026-11-21")
    assert "--from 2026-11-22 is after --to 2026-11-21" in result.stderr


def test_failed_lines_show_no_wallet_transaction_and_amounts_read_alike(
        cli: Any, emulator: Any) -> None:
    declined = cli("pay", "--amount", "25000", "--code", wallet_code(emulator, "dung"))
    assert declined.exit_code == 1
    assert declined.stdout.startswith("FAILED  25.000 ₫  ")
    assert " zp " not in declined.stdout.splitlines()[0] + " "
    paid = _json(cli("pay", "--amount", "30000", "--code", wallet_code(emulator, "an"),
                     "--json"))
    ok_line = cli("status", paid["app_trans_id"]).stdout.splitlines()[0]
    assert f"zp {paid['zp_trans_id']}" in ok_line
    too_much = cli("refund", paid["app_trans_id"], "--amount", "30001")
    assert "Cannot refund 30.001 ₫" in too_much.stderr
    full = _json(cli("refund", paid["app_trans_id"], "--json"))
    assert full["state"] == "refunded"
    shown = _json(cli("status", paid["app_trans_id"], "--json"))
    assert shown["message"] == "Refunded in full (30.000 ₫)."
    assert shown["updated_vn"] and shown["submitted_vn"]


def _cli_with(settings: Settings, tmp_path: Path, **checkout: Any) -> Any:
    """Like the `cli` fixture, with some [checkout] values changed."""
    group = click.Group("pos-terminal")
    money_cmds.register(group)
    add_config_option(group)
    config = write_config(settings, tmp_path / "custom.toml", **checkout)

    def run(*args: str) -> Any:
        return CliRunner().invoke(group, [*args, "--config", str(config)],
                                  catch_exceptions=False)

    return run


def test_code_of_an_unresolved_payment_answers_with_that_payment(
        emulator: Any, settings: Settings, tmp_path: Path) -> None:
    cli = _cli_with(settings, tmp_path, code_reuse_window_s=0)
    code = wallet_code(emulator, "binh")
    first = _json(cli("pay", "--amount", "5000", "--code", code, "--deadline", "0", "--json"))
    again = cli("pay", "--amount", "5000", "--code", code, "--json")
    assert again.exit_code == 3
    data = _json(again)
    assert (data["app_trans_id"], data["refused"]) == (first["app_trans_id"], "unresolved")
    assert quick_pay_requests(emulator) == 1


def test_progress_says_why_it_waits_after_no_answer(emulator: Any, settings: Settings,
                                                     tmp_path: Path) -> None:
    from tests.checkout.conftest import add_fault

    cli = _cli_with(settings, tmp_path, not_found_grace_s=0.4)
    add_fault(emulator, endpoint="quick_pay", mode="http500")
    result = cli("pay", "--amount", "5000", "--code", wallet_code(emulator, "an"))
    assert result.exit_code == 1
    assert ("unknown (" in result.stderr and "): no answer to the charge; asking the service "
            "whether it arrived (1 query)" in result.stderr)


@pytest.mark.parametrize(("args", "needle"), [
    (["--amount", "0"], "The amount must be a positive number of VND, not 0."),
    (["--amount", "-5"], "The amount must be a positive number of VND, not -5."),
    (["--amount", "abc"], "The amount 'abc' is not a whole number of VND"),
    (["--amount", "12.5"], "The amount '12.5' is not a whole number of VND"),
    (["--amount", "100000001"], "above the maximum of 100.000.000 ₫"),
    (["--amount", "1000", "--code", ""], "The payment code is empty"),
    (["--amount", "1000", "--code", "12\x0134\x7f"], "holds characters a payment code never has"),
    (["--amount", "1000", "--description", "x" * 101], "description is 101 characters long"),
    (["--amount", "1000", "--item", "{not json"], "--item '{not json' is not JSON"),
    (["--amount", "1000", "--code", "1", "--scanner", "wedge"], "exactly one of --code"),
])
def test_bad_input_is_refused_naming_it_and_nothing_is_sent(
        cli: Any, emulator: Any, settings: Settings, args: list[str], needle: str) -> None:
    if "--code" not in args:
        args = [*args, "--code", wallet_code(emulator, "an")]
    result = cli("pay", *args, "--json")
    assert result.exit_code == 2
    assert needle in result.stderr
    assert needle in _json(result)["error"]
    assert quick_pay_requests(emulator) == 0
    if Path(settings.terminal.journal).exists():
        raw = sqlite3.connect(settings.terminal.journal)
        assert raw.execute("SELECT count(*) FROM payments").fetchone()[0] == 0
        raw.close()


def test_locked_journal_stops_pay(cli: Any, emulator: Any, settings: Settings) -> None:
    assert cli("report", "x").exit_code == 0  # creates the journal
    holder = sqlite3.connect(settings.terminal.journal, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = cli("pay", "--amount", "1000", "--code", wallet_code(emulator, "an"), "--json")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 2
    assert "is locked by another program. New payments are stopped" in result.stderr
    assert _json(result)["reason"] == "locked"
    assert quick_pay_requests(emulator) == 0


def test_status_refund_override_journal_and_reports(cli: Any, emulator: Any) -> None:
    paid = _json(cli("pay", "--amount", "50000", "--code", wallet_code(emulator, "an"),
                     "--json"))
    tid = paid["app_trans_id"]
    status = cli("status", tid, "--json")
    assert status.exit_code == 0 and _json(status)["state"] == "succeeded"
    assert cli("status", "261121_nope", "--json").exit_code == 2

    part = cli("refund", tid, "--amount", "20000", "--json")
    assert part.exit_code == 0
    assert (_json(part)["state"], _json(part)["amount"]) == ("refunded", 20000)
    too_much = cli("refund", tid, "--amount", "30001")
    assert too_much.exit_code == 2 and "only 30.000 ₫ is left" in too_much.stderr

    pending = _json(cli("pay", "--amount", "7000", "--code", wallet_code(emulator, "binh"),
                        "--deadline", "0.01", "--json"))
    no_reason = cli("override", pending["app_trans_id"], "--mark", "failed", "--reason", " ")
    assert no_reason.exit_code == 2 and "needs a reason" in no_reason.stderr
    over = cli("override", pending["app_trans_id"], "--mark", "failed", "--reason",
               "customer left", "--who", "lan", "--json")
    assert over.exit_code == 1
    assert _json(over)["message"] == "Marked failed by hand by lan: customer left"

    listing = _json(cli("journal", "list", "--json"))
    assert [p["app_trans_id"] for p in listing["payments"]] == [pending["app_trans_id"], tid]
    only_failed = _json(cli("journal", "list", "--state", "failed", "--json"))
    assert [p["app_trans_id"] for p in only_failed["payments"]] == [pending["app_trans_id"]]
    show = _json(cli("journal", "show", tid, "--json"))
    assert [(e["from"], e["to"]) for e in show["events"]] == [
        ("new", "submitting"), ("submitting", "succeeded"), ("new", "refunding"),
        ("refunding", "refunded")]
    assert show["refunded_amount"] == 20000

    exported = cli("journal", "export", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert [(r["app_trans_id"], r["state"], r["amount"], r["refunded_amount"]) for r in rows] == [
        (tid, "succeeded", "50000", "20000"), (pending["app_trans_id"], "failed", "7000", "0")]
    as_json = json.loads(cli("journal", "export", "--format", "json").stdout)
    assert len(as_json["payments"]) == 2 and as_json["payments"][0]["events"]

    x = _json(cli("report", "x", "--json"))
    assert (x["sales_amount"], x["refunds_amount"], x["net_amount"], x["failed_count"]) == (
        50000, 20000, 30000, 1)
    z = _json(cli("report", "z", "--json"))
    assert (z["kind"], z["number"], z["net_amount"]) == ("z", 1, 30000)
    assert _json(cli("report", "z", "--show", "1", "--json")) == z
    assert _json(cli("report", "x", "--json"))["sales_count"] == 0
    human = cli("report", "z", "--show", "1")
    assert human.stdout.splitlines()[0] == "Z report #1"
    assert ledger(emulator)["balances"]["an"] == 50_000_000 - 30_000


def test_pay_with_a_scanner_reads_a_real_qr_picture(cli: Any, emulator: Any,
                                                    tmp_path: Path) -> None:
    import segno

    folder = tmp_path / "shots"
    folder.mkdir()
    code = wallet_code(emulator, "an")
    segno.make_qr(code).save(str(folder / "code.png"), scale=8, border=4)
    result = cli("pay", "--amount", "4000", "--scanner", f"images:{folder}", "--scan-timeout",
                 "20", "--json")
    assert result.exit_code == 0, result.stderr
    data = _json(result)
    assert data["state"] == "succeeded" and data["code_last4"] == code[-4:]
    assert len(charged(emulator, data["app_trans_id"])) == 1


def test_pay_with_a_scanner_that_reads_nothing_sends_nothing(cli: Any, emulator: Any,
                                                             tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = cli("pay", "--amount", "4000", "--scanner", f"images:{tmp_path / 'empty'}",
                 "--scan-timeout", "0.5", "--json")
    assert result.exit_code == 2
    assert "No payment code was read from images:" in _json(result)["error"]
    bad = cli("pay", "--amount", "4000", "--scanner", "nonsense:1")
    assert bad.exit_code == 2 and "cannot be used" in bad.stderr
    assert quick_pay_requests(emulator) == 0


def test_human_output_in_vietnamese_with_language_vi(settings: Settings, tmp_path: Path,
                                                     emulator: Any) -> None:
    """[terminal] language = "vi" in --config: the result line and the errors are Vietnamese,
    money is written the same way; --language en overrides the file."""
    group = click.Group("pos-terminal")
    money_cmds.register(group)
    add_config_option(group)
    config = write_config(settings, tmp_path / "pos.toml")
    config.write_text(config.read_text("utf-8").replace(
        "[terminal]\n", '[terminal]\nlanguage = "vi"\n'), "utf-8")
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(group, [*args, "--config", str(config)], catch_exceptions=False)

    ok = run("pay", "--amount", "12000", "--code", wallet_code(emulator, "an"))
    assert ok.exit_code == 0, ok.stderr
    first, second = ok.stdout.splitlines()[:2]
    assert first.startswith("THÀNH CÔNG  12.000 ₫  ")
    assert second == "  Đã nhận tiền. Giao dịch đã hoàn tất."
    declined = run("pay", "--amount", "5000", "--code", wallet_code(emulator, "dung"))
    assert declined.exit_code == 1
    assert declined.stdout.startswith("THẤT BẠI  5.000 ₫  ")
    zero = run("pay", "--amount", "0", "--code", wallet_code(emulator, "an"))
    assert zero.exit_code == 2
    assert zero.stderr.strip() == "lỗi: Số tiền phải là số VND lớn hơn 0, không phải 0."
    english = run("pay", "--amount", "0", "--code", "x" * 20, "--language", "en")
    assert english.stderr.strip() == "error: The amount must be a positive number of VND, not 0."
    listed = run("journal", "list")
    assert "thành công" in listed.stdout and "12.000 ₫" in listed.stdout
