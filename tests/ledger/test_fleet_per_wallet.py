"""`fleet report` totals each wallet (issue 40): the shop's sales and refunds of each wallet
provider, in its text, its JSON and its CSV, in the registry's order; a wallet this program does
not know (a counter's installed one) is still counted, under the key the counter wrote."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import psycopg

from pos_terminal.base.reasons import Reason
from pos_terminal.counter import open_checkout
from tests.conftest import with_momo
from tests.ledger.attacks import payment_insert
from tests.ledger.crashes_helpers import run_cli, write_config
from tests.ledger.pgserver import PgServer
from tests.ledger.syncing import sync_now


def test_fleet_report_totals_each_wallet(make_terminal: Any, emulator: Any, ledger_dsn: str,
                                         pg: PgServer, tmp_path: Path) -> None:
    a = with_momo(make_terminal("W1"), emulator)
    [zp_code] = emulator.control.rotate("an", 1)
    with open_checkout(a) as co:
        co.pay(30_000, zp_code)
        mm = co.pay(45_000, emulator.control.momo_code("momo-paid"))
        co.refund(mm.app_trans_id, 5_000)
    sync_now(a)
    as_a = a.ledger.dsn.get_secret_value() + f"&sslrootcert={pg.ca_file}"
    with psycopg.connect(as_a, autocommit=True) as conn:  # a wallet installed at that counter
        sql, params = payment_insert("261125_W1_kiwi", "W1", 7_000, state="succeeded")
        conn.execute(sql.replace("payments(", "payments(provider, ").replace(
            "VALUES (", "VALUES ('kiwi', "), params)
    config = write_config(a, tmp_path / "ho.toml", dsn=ledger_dsn)

    shown = run_cli("fleet", config, "report", "--json", "--csv", str(tmp_path / "r.csv"))
    assert shown.returncode == 0, shown.stderr
    wallets = json.loads(shown.stdout)["wallets"]
    assert [(w["provider"], w["name"], w["sales_count"], w["sales_amount"], w["refunds_amount"],
             w["net_amount"]) for w in wallets] == [
        ("zalopay", "ZaloPay", 1, 30_000, 0, 30_000),
        ("momo", "MoMo wallet", 1, 45_000, 5_000, 40_000),
        ("kiwi", "kiwi", 1, 7_000, 0, 7_000)]
    assert json.loads(shown.stdout)["shop"]["net_amount"] == 77_000
    rows = list(csv.reader((tmp_path / "r.csv").open(encoding="utf-8")))
    assert [(r[2], r[3]) for r in rows if r[1] == "wallet"] == [
        ("zalopay", "1"), ("momo", "1"), ("kiwi", "1")]

    text = run_cli("fleet", config, "report")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    titles = [line for line in lines if line.startswith("Wallet ")]
    assert titles == ["Wallet ZaloPay", "Wallet MoMo wallet", "Wallet kiwi"]
    after_momo = lines[lines.index("Wallet MoMo wallet") + 1:][:3]
    assert "45.000" in after_momo[0] and "-5.000" in after_momo[1] and "40.000" in after_momo[2]
    assert lines[0].startswith("Shop, ") and lines[0].endswith("(Vietnam time), 1 counter")
    assert lines[1].startswith("  sales ")

    # the same report in Vietnamese: every title and row label in the cashier's language
    vi = run_cli("fleet", config, "report", "--language", "vi")
    assert vi.returncode == 0, vi.stderr
    lines = vi.stdout.splitlines()
    assert lines[0].startswith("Cửa hàng, ngày ") and lines[0].endswith("(giờ Việt Nam), 1 quầy")
    assert lines[1].startswith("  giao dịch thành công ")
    assert [line for line in lines if line.startswith("Thanh toán qua ")] == [
        "Thanh toán qua ZaloPay", "Thanh toán qua Ví MoMo", "Thanh toán qua kiwi"]
    assert any(line.startswith("Quầy W1 (đồng bộ lần cuối: ") for line in lines)
    assert any(line.startswith("Thu ngân ") for line in lines)
    after_momo = lines[lines.index("Thanh toán qua Ví MoMo") + 1:][:3]
    assert after_momo[1].startswith("  hoàn tiền ") and "-5.000" in after_momo[1]
    english = ("Shop", "Counter ", "Wallet ", "Cashier ", "  sales", "  refunds", "  net ")
    assert not [line for line in lines if line.startswith(english)]


def test_fleet_report_splits_a_rest_collected_sale_and_survives_a_bad_one(
        make_terminal: Any, ledger_dsn: str, pg: PgServer, tmp_path: Path) -> None:
    """A part-paid shop-QR sale whose rest came in cash: its wallet counts what arrived, the rest
    is `collected_otherwise_*` in every scope; a row whose text names that reason but is no
    JSON (a counter's bad write) counts whole and breaks nothing."""
    a = make_terminal("W2")
    sync_now(a)  # the counter is known to the ledger
    as_a = a.ledger.dsn.get_secret_value() + f"&sslrootcert={pg.ca_file}"
    good = Reason.of("override.rest_collected", wallet="payOS", amount=20_000, ordered=60_000,
                     missing=40_000, who="sup", reason="rest in cash").dumps()
    bad = '{"reason":"override.rest_collected"'
    with psycopg.connect(as_a, autocommit=True) as conn:
        for key, amount, message in (("261125_W2_good", 60_000, good),
                                     ("261125_W2_bad", 7_000, bad),
                                     ("261125_W2_plain", 5_000, "paid")):
            sql, params = payment_insert(key, "W2", amount, message=message)
            conn.execute(sql.replace("payments(", "payments(provider, ").replace(
                "VALUES (", "VALUES ('payos', "), params)
    config = write_config(a, tmp_path / "ho.toml", dsn=ledger_dsn)
    shown = run_cli("fleet", config, "report", "--json")
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout)
    [wallet] = report["wallets"]
    assert (wallet["sales_count"], wallet["sales_amount"], wallet["collected_otherwise_count"],
            wallet["collected_otherwise_amount"]) == (3, 32_000, 1, 40_000), wallet
    for scope in (report["shop"], report["terminals"][0], report["cashiers"][0]):
        assert (scope["sales_amount"], scope["collected_otherwise_amount"]) == (
            72_000, 40_000), scope
