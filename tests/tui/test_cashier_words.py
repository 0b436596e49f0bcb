"""What a cashier reads names no shell command and no configuration key (issue 21): on the
screens every reason says what a cashier or a supervisor does in the UI, in both languages,
while the CLI keeps naming its commands and settings."""

from __future__ import annotations

import importlib
import pkgutil
import re
import string
from pathlib import Path
from typing import ClassVar

import pytest

from pos_terminal import sentences
from pos_terminal.base.reasons import Reason
from pos_terminal.sentences.reports import report_lines

#: A command to type or a setting to edit: a cashier's screen says neither.
NOT_FOR_A_CASHIER = re.compile(
    r"pos-terminal|\[(service|printer|checkout|scanner|terminal|ui|cashiers|speaker|api)\]"
    r"|POS_[A-Z]|chmod|apt-get|pip install|lsusb|base_url|\.toml")
#: Reasons only the CLI and the Terminal API give (tokens; a typed code against the [scanner]
#: filter: `--code`, `payment_code`, checkout/validation.check_code_format; a wallet refusing
#: the webhook `register-webhook` asked for), or given before any screen is up (the journal's
#: file permissions refuse to open it at start-up).
NEVER_ON_A_SCREEN = {"token.exists", "token.unknown", "token.unknown_scope", "token.bad_name",
                     "code.length", "code.alphabet", "notice.registration_refused",
                     "journal.others_can_write", "journal.others_can_read"}
#: Every module of the renderer, so that a new one's parameters are given too.
MODULES = tuple(importlib.import_module(f"pos_terminal.sentences.{m.name}")
                for m in pkgutil.iter_modules(sentences.__path__))


def _names() -> set[str]:
    """Every {name} any sentence of the renderer formats."""
    names: set[str] = set()
    for module in MODULES:
        for text in re.findall(r'N_\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)',
                               Path(str(module.__file__)).read_text(encoding="utf-8")):
            joined = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))
            names |= {field for _l, field, _f, _c in string.Formatter().parse(joined) if field}
    return {name.split("!")[0] for name in names}


def _params() -> dict[str, object]:
    params: dict[str, object] = {name: "x" for name in _names()}
    params.update(seconds=300, left=2, count=3, amount=50000, minimum=1000, maximum=9000,
                  ordered=50000, time_ms=1_795_000_000_000, hours=24, port=9100, kind="usb",
                  final=False, returns=True, cause="timed out", state="processing",
                  app_trans_id="261125_counter1_x")
    params["error"] = Reason.text("disk I/O error").as_dict()
    return params


@pytest.mark.parametrize("language", ["en", "vi"])
def test_no_reason_tells_a_cashier_to_type_a_command_or_edit_a_setting(language: str) -> None:
    sentences.use_front_end("screen")
    params = _params()
    said = {code: sentences.render(Reason.of(code, **params), language)
            for code in sorted(sentences.known_codes() - NEVER_ON_A_SCREEN - {"text"})}
    assert len(said) > 100
    wrong = {code: text for code, text in said.items() if NOT_FOR_A_CASHIER.search(text)}
    assert wrong == {}


def test_the_cli_keeps_naming_its_commands_and_settings() -> None:
    sentences.use_front_end("commands")
    params = _params()
    for code, expected in (("cashier.locked", "`pos-terminal cashier unlock x`"),
                           ("printer.not_set_up", "Set [printer] target in x"),
                           ("refused.credentials", "Check [service] app_id and key1"),
                           ("unknown.still_open", "Run `pos-terminal reconcile`")):
        assert expected in sentences.render(Reason.of(code, **params), "en"), code


class _Report:
    """An X report with payments still open and one too old to query, at a counter that takes
    two wallets (so the report names them)."""

    by_provider: ClassVar[dict[str, dict[str, int]]] = {
        wallet: {"count": 1, "amount": 20000, "refunds_count": 1, "refunds_amount": 5000}
        for wallet in ("zalopay", "momo")}

    def __getattr__(self, name: str) -> int:
        return 2 if name.endswith("_count") else 40000 if name.endswith("_amount") else 0


@pytest.mark.parametrize("language", ["en", "vi"])
def test_the_reports_screen_says_what_the_terminal_does_not_a_command(language: str) -> None:
    from pos_terminal.base import i18n

    i18n.set_language(language)
    sentences.use_front_end("screen")
    shown = "\n".join(report_lines(_Report()))
    assert not NOT_FOR_A_CASHIER.search(shown), shown
    sentences.use_front_end("commands")
    assert "`pos-terminal reconcile`" in "\n".join(report_lines(_Report()))
