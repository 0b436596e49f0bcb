"""The one outcome rule (pos_terminal.checkout.verdict) on the paths nobody plans for: headless
answers about a payment whose answer could not be recorded, the CLI's unexpected errors."""

from __future__ import annotations

import io
import json
import threading
import time
from typing import Any

from pos_terminal.config import Settings
from pos_terminal.counter import Counter, answers, open_checkout
from pos_terminal.headless import CounterLoop
from pos_terminal.journal import Journal
from tests.checkout.conftest import add_fault, journal_and_holder, quick_pay_requests, wallet_code


def test_headless_error_after_the_intent_carries_state_and_app_trans_id(
        settings: Settings, emulator: Any, scanner: Any) -> None:
    from hardware import open_source

    journal, holder = journal_and_holder(settings)
    add_fault(emulator, endpoint="quick_pay", mode="delay", delay_s=1.0)
    code = wallet_code(emulator, "an")
    done = threading.Event()

    def scan_then_lock() -> None:
        scanner.hold_up(code)  # the customer's phone, until the charge is sent
        while quick_pay_requests(emulator) == 0 and not done.is_set():
            time.sleep(0.05)
        scanner.take_away()
        holder.execute("BEGIN EXCLUSIVE")  # the journal fails once the charge has left

    out = io.StringIO()
    source = open_source(f"serial:{scanner.path}")
    with open_checkout(settings, journal=journal) as co:
        loop = CounterLoop(Counter(settings, co), source, out, scan_timeout_s=20)
        helper = threading.Thread(target=scan_then_lock)
        helper.start()
        try:
            assert loop.handle("PAY 5000") is True
        finally:
            done.set()
            helper.join()
            holder.execute("ROLLBACK")
            holder.close()
            loop.close()
        answer = json.loads(out.getvalue().splitlines()[-1])
        [row] = co.journal.pending()
    journal.close()
    assert answer["ok"] is False and answer["command"] == "PAY"
    assert "could not be recorded" in answer["error"]
    assert (answer["app_trans_id"], answer["state"]) == (row.app_trans_id, "submitting")
    assert (answer["outcome"], answer["exit_code"]) == ("unknown", 3)


def test_error_answer_before_and_after_the_intent(settings: Settings) -> None:
    with Journal.open(settings.terminal.journal) as journal:
        journal.record_intent(app_trans_id="261121_t_1", amount=9, generation="v2")
        before, code_before = answers.error_answer(ValueError("x" * 10_000), journal, None, 9)
        after, code_after = answers.error_answer(OverflowError("int too large"), journal,
                                                 "261121_t_1", 9)
    assert (code_before, before["outcome"], before["app_trans_id"]) == (2, "nothing_sent", None)
    assert len(before["error"]) < 400  # one line, never megabytes
    assert (code_after, after["outcome"], after["state"]) == (3, "unknown", "submitting")
    assert after["app_trans_id"] == "261121_t_1"
    assert "do not charge again" in after["message"].lower()  # whichever front end words it


def test_cli_pay_with_a_nan_deadline_answers_unknown(settings: Settings, emulator: Any,
                                                     tmp_path: Any) -> None:
    import click
    from click.testing import CliRunner

    from pos_terminal.cli import money_cmds
    from pos_terminal.cli.common import add_config_option
    from tests.checkout.conftest import write_config

    group = click.Group("pos-terminal")
    money_cmds.register(group)
    add_config_option(group)
    config = write_config(settings, tmp_path / "pos.toml")
    result = CliRunner().invoke(group, ["pay", "--amount", "5000", "--code",
                                        wallet_code(emulator, "binh"), "--deadline", "nan",
                                        "--json", "--config", str(config)],
                                catch_exceptions=False)
    data = json.loads(result.stdout)
    assert result.exit_code == 3
    assert (data["state"], data["outcome"], data["exit_code"]) == ("processing", "unknown", 3)
    assert data["app_trans_id"]
