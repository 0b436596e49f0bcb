"""What `pay` reads besides its options: the --item JSON, the payment code from stdin (never
from the command line), and one code from a scan source."""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import click

from pos_terminal.base.i18n import N_, _
from pos_terminal.cli.money_common import pay_error
from pos_terminal.config import Settings
from pos_terminal.counter import Scanner, source_factory
from pos_terminal.counter.types import InvalidPayment, Item
from pos_terminal.text_safety import AbsurdNumber, bounded_int, clean


def parse_items(raw: tuple[str, ...], as_json: bool, amount: int) -> list[Item]:
    items: list[Item] = []

    def bad(message: str) -> NoReturn:
        pay_error(message, as_json=as_json, amount=amount, field="item")

    for text in raw:
        shown = repr(clean(text) if len(text) <= 200 else clean(text[:200]) + "...")
        try:
            data = json.loads(text, parse_int=bounded_int)
        except AbsurdNumber as exc:
            bad(_("--item {text} holds a number of {digits} digits: no price or quantity is "
                  "that large").format(text=shown[:80] + "...", digits=f"{exc.digits:,}"))
        except (ValueError, RecursionError) as exc:
            error = exc.msg if isinstance(exc, json.JSONDecodeError) else _("unreadable")
            bad(_("--item {text} is not JSON ({error}); give an object like {example}").format(
                text=shown, error=error,
                example='{"itemid":"a1","itemname":"Tea","itemprice":20000,"itemquantity":1}'))
        for obj in data if isinstance(data, list) else [data]:
            if not isinstance(obj, dict):
                bad(_("--item {text} must be a JSON object (or a list of objects)").format(
                    text=shown))
            try:
                item = Item(itemid=str(obj["itemid"]), itemname=str(obj["itemname"]),
                            itemprice=obj["itemprice"], itemquantity=obj.get("itemquantity", 1))
            except KeyError as exc:
                bad(_("--item {text} has no {key}").format(text=shown, key=exc.args[0]))
            if (not isinstance(item.itemprice, int) or isinstance(item.itemprice, bool)
                or not isinstance(item.itemquantity, int)
                or isinstance(item.itemquantity, bool)):
                bad(_("--item {text}: itemprice and itemquantity must be whole numbers").format(
                    text=shown))
            items.append(item)
    return items


def code_from_stdin(as_json: bool, amount: int) -> str:
    """The payment code from the first line of stdin (never on the command line, where every
    local user sees it in `ps`)."""
    try:
        if sys.stdin.isatty():  # typed or a keyboard-mode scanner: not echoed, not in scrollback
            import getpass

            line = getpass.getpass(_("Payment code: "))
        else:
            line = sys.stdin.readline()
    except (UnicodeDecodeError, EOFError):
        line = None
    if line is None or not line.strip():
        pay_error(_("no payment code on stdin: pipe it in as one line of text, e.g. from the "
                    "scanner's program or `read -s CODE; printf '%s\\n' \"$CODE\" | "
                    "pos-terminal pay --amount 50000 --code-stdin`. Nothing was charged."),
                  as_json=as_json, amount=amount, field="code")
    return line.rstrip("\r\n")


def read_scan(settings: Settings, spec: str, timeout_s: float) -> str:
    """Wait for one code from a scan source (camera, wedge, serial, ...)."""
    source = source_factory(settings, spec)()
    assert source is not None  # `wedge` is refused before
    scanner = Scanner(source)
    click.echo(_("Waiting for a payment code from {spec} (up to {seconds} s)...").format(
        spec=spec, seconds=f"{timeout_s:g}"), err=True)
    scanner.start()
    try:
        code = scanner.wait_for_code(timeout_s, keep_earlier=True)
    finally:
        scanner.stop()
    if code is None:
        raise InvalidPayment("payment code", _("No payment code was read from {spec} within "
                                               "{seconds} s. Nothing was charged.").format(
                                                   spec=spec, seconds=f"{timeout_s:g}"))
    return code.text



# ------------------------------------------------------------------ pay
WEDGE_REFUSAL = N_(
    "the keyboard wedge is read by the terminal UI, not by `pay` (a keyboard-wedge scanner types "
    "into the terminal UI): for a scanner in keyboard mode use --scanner "
    "evdev:/dev/input/eventN (see `ls /dev/input/by-id`), or give the code with --code. Nothing "
    "was charged."
)

