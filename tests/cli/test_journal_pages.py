"""`journal list` pages (today by default, --since/--until, --limit with a cursor), exports
filtered by day in the journal (refunds too), `journal info` and `journal compact`, through
click, on a real journal with rows on several days."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from pos_terminal.base.clock import day_bounds_ms, iso_day, today
from pos_terminal.cli import journal_upkeep_cmds, money_cmds
from pos_terminal.cli.common import add_config_option
from pos_terminal.config import Settings
from pos_terminal.journal import Journal, PaymentState, RefundState
from tests.checkout.conftest import write_config

S = PaymentState
DAY_MS = 24 * 3600 * 1000


class Clock:
    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    """Three payments (one refunded in part) on each of the 3 days before today, and 5 today."""
    path = tmp_path / "journal.sqlite3"
    start, _ = day_bounds_ms(today())
    clock = Clock(start - 3 * DAY_MS)
    with Journal.open(path, clock=clock) as journal:
        for day, count in ((-3, 3), (-2, 3), (-1, 3), (0, 5)):
            for i in range(count):
                clock.t = start + day * DAY_MS + 3_600_000 + i * 60_000
                tid = f"d{day + 3}_{i}"
                journal.record_intent(app_trans_id=tid, amount=10_000 + i, generation="v2")
                journal.transition(tid, S.SUCCEEDED, message="paid", zp_trans_id=f"z{tid}")
                if i == 0:
                    journal.record_refund_intent(m_refund_id=f"r{tid}", app_trans_id=tid,
                                                 amount=1_000, description="",
                                                 request_ms=clock.t)
                    journal.refund_transition(f"r{tid}", RefundState.REFUNDED, message="refunded")
    return path


@pytest.fixture
def cli(base_settings: Settings, journal_path: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    group = click.Group("pos-terminal")
    money_cmds.register(group)
    journal_upkeep_cmds.register(group)
    add_config_option(group)
    settings = base_settings.replace_section("terminal", journal=journal_path)
    config = write_config(settings, tmp_path / "pos.toml")
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(group, [*args, "--config", str(config)], catch_exceptions=False)

    return run


def _ids(result: Any) -> list[str]:
    assert result.exit_code == 0, result.stderr
    return [line.split()[2] for line in result.stdout.splitlines()]


def _day(offset: int) -> str:
    start, _ = day_bounds_ms(today())
    return iso_day(start + offset * DAY_MS + 3_600_000)


def test_journal_list_shows_today_unless_days_are_given(cli: Any) -> None:
    assert _ids(cli("journal", "list")) == ["d3_4", "d3_3", "d3_2", "d3_1", "d3_0"]
    assert _ids(cli("journal", "list", "--since", _day(-2), "--until", _day(-1))) == [
        "d2_2", "d2_1", "d2_0", "d1_2", "d1_1", "d1_0"]
    assert len(_ids(cli("journal", "list", "--from", _day(-3)))) == 14


def test_journal_list_pages_with_a_cursor_to_the_end(cli: Any) -> None:
    seen: list[str] = []
    args = ["journal", "list", "--since", _day(-3), "--limit", "4", "--json"]
    cursor: str | None = None
    for _page in range(10):
        result = cli(*args, *(["--cursor", cursor] if cursor else []))
        assert result.exit_code == 0, result.stderr
        page = json.loads(result.stdout)
        seen += [p["app_trans_id"] for p in page["payments"]]
        assert page["count"] == len(page["payments"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    everything = _ids(cli("journal", "list", "--since", _day(-3)))
    assert seen == everything and len(seen) == 14


def test_a_text_page_tells_how_to_go_on_and_an_unknown_cursor_is_one_sentence(
        cli: Any) -> None:
    page = cli("journal", "list", "--limit", "2")
    assert _ids(page) == ["d3_4", "d3_3"]
    assert "--cursor d3_3" in page.stderr
    assert _ids(cli("journal", "list", "--limit", "2", "--cursor", "d3_3")) == ["d3_2", "d3_1"]
    unknown = cli("journal", "list", "--cursor", "nope")
    assert unknown.exit_code == 2
    assert "--cursor 'nope' is not a payment in this journal" in unknown.stderr


def test_refund_export_keeps_to_its_days(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "refunds.csv"
    result = cli("journal", "export", "--what", "refunds", "--from", _day(-2), "--to",
                 _day(-1), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [r["m_refund_id"] for r in rows] == ["rd1_0", "rd2_0"]
    assert "exported 2 refunds" in result.stderr
    as_json = cli("journal", "export", "--what", "refunds", "--format", "json", "--from",
                  _day(0))
    assert [r["m_refund_id"] for r in json.loads(as_json.stdout)["refunds"]] == ["rd3_0"]


def test_payment_export_as_json_streams_one_object(cli: Any) -> None:
    result = cli("journal", "export", "--format", "json", "--from", _day(-1), "--to", _day(-1))
    data = json.loads(result.stdout)
    assert [p["app_trans_id"] for p in data["payments"]] == ["d2_0", "d2_1", "d2_2"]
    assert [r["m_refund_id"] for r in data["payments"][0]["refunds"]] == ["rd2_0"]
    empty = cli("journal", "export", "--format", "json", "--from", "2020-01-01", "--to",
                "2020-01-01")
    assert json.loads(empty.stdout) == {"payments": []}


def test_journal_info_and_compact(cli: Any) -> None:
    info = cli("journal", "info", "--json")
    assert info.exit_code == 0, info.stderr
    data = json.loads(info.stdout)
    assert data["rows"]["payments"] == 14 and data["rows"]["refunds"] == 4
    assert data["auto_vacuum"] == "incremental" and data["disk_warning"] is False
    assert data["oldest_ms"] < data["newest_ms"]
    text = cli("journal", "info")
    assert "payments 14: oldest " in text.stdout and "per payment" in text.stdout
    assert "full in about" in text.stdout and "WARNING" not in text.stderr
    compact = cli("journal", "compact")
    assert compact.exit_code == 0 and "journal compacted" in compact.stdout


def test_refund_export_filters_by_a_refunds_own_states(cli: Any, journal_path: Path) -> None:
    with Journal.open(journal_path) as journal:
        journal.record_refund_intent(m_refund_id="open_one", app_trans_id="d3_0", amount=500,
                                     description="", request_ms=1)
    open_only = cli("journal", "export", "--what", "refunds", "--format", "json", "--from",
                    _day(-3), "--state", "refunding")
    assert open_only.exit_code == 0, open_only.stderr
    assert [r["m_refund_id"] for r in json.loads(open_only.stdout)["refunds"]] == ["open_one"]
    done = cli("journal", "export", "--what", "refunds", "--format", "json", "--from",
               _day(-3), "--state", "refunded")
    assert len(json.loads(done.stdout)["refunds"]) == 4
    # a payment's state is no refund's: one sentence, nothing exported
    wrong = cli("journal", "export", "--what", "refunds", "--state", "succeeded")
    assert wrong.exit_code == 2 and not wrong.stdout
    assert "--state succeeded is a payment's state; a refund is refunding, refunded, failed" \
        in wrong.stderr
    payments = cli("journal", "export", "--state", "refunding")
    assert payments.exit_code == 2 and "give --what refunds too" in payments.stderr
