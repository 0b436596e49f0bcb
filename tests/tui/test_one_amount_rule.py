"""One amount, one verdict, on every front end (issue 22, item 5): the CLI's ``--amount``,
headless ``PAY``, the TUI's Sale screen (a paste into the amount, then Enter, through Pilot) and
the Terminal API accept and refuse the same amounts, each refusal in the same sentence: the one
rule of base/amounts.py, worded once by pos_terminal.sentences."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from textual import events

from pos_terminal.base.amounts import parse_amount
from pos_terminal.cli import money_cmds
from pos_terminal.cli.common import add_config_option
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.headless import CounterLoop
from pos_terminal.tui.widgets.amount import AmountField
from tests.api.conftest import Api, start_api
from tests.checkout.conftest import quick_pay_requests, write_config
from tests.tui.helpers import text_of, wait_until

ACCEPTED = "accepted"

#: What a person or a sale system gives -> the amount it is (None: refused). The TUI's limits
#: and everyone else's are the configured ones (min 1 ₫, max 100.000.000 ₫).
TABLE: list[tuple[str, int | None]] = [
    ("50000", 50_000),
    ("50.000", 50_000),
    ("50.000 đ", 50_000),
    ("50,000 ₫", 50_000),
    ("50.5", None),  # VND has no decimals: never read as 505
    ("12a", None),
    ("١٢٣", None),  # digits of another script
    ("0", None),
    ("-5", None),
    ("100.000.001", None),  # above the maximum
    ("99999999999999999", None),  # far above any maximum
]
TEXTS = [text for text, _amount in TABLE]


def expected(settings: Settings, text: str) -> str:
    read = parse_amount(text, settings.checkout)
    return ACCEPTED if isinstance(read, int) else str(read)


def test_the_table_is_what_the_rule_says(settings: Settings) -> None:
    for text, amount in TABLE:
        read = parse_amount(text, settings.checkout)
        assert (read if isinstance(read, int) else None) == amount, text


# ---------------------------------------------------------------- the CLI
def cli_verdict(settings: Settings, tmp_path: Path, text: str) -> str:
    group = click.Group("pos-terminal")
    money_cmds.register(group)
    add_config_option(group)
    config = write_config(settings, tmp_path / "pos.toml")
    # an empty code is refused after the amount: an amount that passes says so
    result = CliRunner().invoke(group, ["pay", "--amount", text, "--code", "", "--json",
                                        "--config", str(config)], catch_exceptions=False)
    assert result.exit_code == 2, result.stderr
    error = str(json.loads(result.stdout)["error"])
    return ACCEPTED if "payment code is empty" in error else error


# ---------------------------------------------------------------- headless mode
def headless_verdict(settings: Settings, text: str) -> str:
    out = io.StringIO()
    with open_checkout(settings) as co:
        loop = CounterLoop(Counter(settings, co), None, out)  # no scanner: PAY stops there
        try:
            loop.handle(f"PAY {text}")
        finally:
            loop.close()
    answer = json.loads(out.getvalue().splitlines()[-1])
    assert answer["ok"] is False
    return ACCEPTED if answer["error"].startswith("no scanner") else str(answer["error"])


# ---------------------------------------------------------------- the TUI's Sale screen
def sale_error(pilot: Any) -> str:
    """The Sale screen's error line (not its notices: a hint, the supervisor notice)."""
    message = pilot.app.screen.query_one("#sale-message")
    return text_of(pilot, "#sale-message") if message.has_class("error") else ""


async def tui_verdict(make_app: Any, text: str) -> str:
    async with make_app().run_test(size=(100, 30)) as pilot:
        field = pilot.app.screen.query_one(AmountField)
        paste = events.Paste(text)
        paste.set_sender(pilot.app)
        pilot.app._driver.send_message(paste)  # as the terminal's bracketed paste arrives
        await wait_until(pilot, lambda: field.amount > 0 or bool(sale_error(pilot)),
                         what="the paste taken or refused")
        if sale_error(pilot):  # refused as it was pasted
            return sale_error(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "PayScreen"
                         or bool(sale_error(pilot)), what="a verdict")
        if type(pilot.app.screen).__name__ == "PayScreen":
            return ACCEPTED
        return sale_error(pilot)


# ---------------------------------------------------------------- the Terminal API
def api_verdict(api: Api, amount: int) -> str:
    answer = api.post("/v1/payments", {"amount": amount, "sale_ref": f"s{abs(amount)}",
                                       "payment_code": api.wallet_code("an")})
    if answer.status_code == 200:
        return ACCEPTED
    error = answer.json()["error"]
    assert error["code"] == "invalid_amount", error
    return str(error["message"])


@pytest.mark.parametrize("text", TEXTS)
def test_the_cli_says_what_the_rule_says(settings: Settings, tmp_path: Path, text: str) -> None:
    assert cli_verdict(settings, tmp_path, text) == expected(settings, text)


@pytest.mark.parametrize("text", TEXTS)
def test_headless_mode_says_what_the_rule_says(settings: Settings, text: str) -> None:
    assert headless_verdict(settings, text) == expected(settings, text)


@pytest.mark.asyncio
@pytest.mark.parametrize("text", TEXTS)
async def test_the_sale_screen_says_what_the_rule_says(make_app: Any, settings: Settings,
                                                       text: str) -> None:
    assert await tui_verdict(make_app, text) == expected(settings, text)


@pytest.fixture
def api(settings: Settings, emulator: object) -> Iterator[Api]:
    running, stop = start_api(settings, emulator)
    try:
        yield running
    finally:
        stop()


@pytest.mark.parametrize(("text", "amount"), [(t, a) for t, a in (
    ("50000", 50_000), ("0", 0), ("-5", -5), ("100.000.001", 100_000_001))])
def test_the_terminal_api_says_what_the_rule_says(api: Api, settings: Settings, text: str,
                                                  amount: int) -> None:
    """The API takes JSON integers only (a string is refused by its schema, before any rule):
    the integers of the table get the table's verdict."""
    before = quick_pay_requests(api.emulator)
    assert api_verdict(api, amount) == expected(settings, text)
    assert quick_pay_requests(api.emulator) == before + (1 if amount == 50_000 else 0)

