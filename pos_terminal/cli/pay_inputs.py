"""What `pay` reads and checks before the counter opens: the amount, the --item JSON, the
payment code from stdin (never from the command line) or from a scan source, the cashier."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import NoReturn

import click

from pos_terminal.base.amounts import parse_amount
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.reasons import Reason
from pos_terminal.cli.cashier_cmds import PinReader, signed_cashier
from pos_terminal.cli.money_common import pay_error
from pos_terminal.config import Settings
from pos_terminal.counter import Scanner, source_factory
from pos_terminal.counter.types import (
    CashierError,
    InvalidPayment,
    Item,
    check_code,
    check_code_format,
    description_problem,
    items_problem,
)
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



WEDGE_REFUSAL = N_(
    "the keyboard wedge is read by the terminal UI, not by `pay` (a keyboard-wedge scanner types "
    "into the terminal UI): for a scanner in keyboard mode use --scanner "
    "evdev:/dev/input/eventN (see `ls /dev/input/by-id`), or give the code with --code. Nothing "
    "was charged."
)


@dataclass(frozen=True)
class PayRequest:
    """What `pay` charges, read and checked before the counter opens (nothing was charged
    when any of it is refused)."""

    amount: int
    code: str
    items: list[Item]


def read_request(settings: Settings, *, amount_text: str, code: str | None, code_stdin: bool,
                 scanner_spec: str | None, scan_timeout: float, description: str,
                 items: tuple[str, ...], cashier_id: str | None, pin_stdin: bool,
                 as_json: bool) -> PayRequest:
    """The options of `pay` as a request: the amount, the code (from --code, stdin or a scan)
    and the items. Refuses bad input with exit 2 before a customer is asked to scan: the
    description and items are checked here, naming the options, before Checkout.pay checks
    them again (as every front end's input is)."""
    amount_read = parse_amount(amount_text, settings.checkout)  # the one rule (base/amounts)
    if isinstance(amount_read, Reason):
        pay_error(str(amount_read), as_json=as_json, amount=None, field="amount")
    amount = amount_read
    if code_stdin and code is not None:
        pay_error(_("give the payment code once: --code-stdin or --code, not both. Nothing "
                    "was charged."), as_json=as_json, amount=amount, field="code")
    if code_stdin:
        code = "-"
    if (code is None) == (scanner_spec is None):
        pay_error(_("give exactly one of --code-stdin (the code on stdin) or --scanner SPEC"),
                  as_json=as_json, amount=amount, field="code")
    if code == "-":
        code = code_from_stdin(as_json, amount)
    if scanner_spec is not None and scanner_spec.strip().partition(":")[0].lower() == "wedge":
        pay_error(_(WEDGE_REFUSAL), as_json=as_json, amount=amount, field="scanner")
    if code is not None:
        try:
            check_code(code)
            check_code_format(code, settings.scanner, field="--code",
                              alphabet=settings.scan_alphabet)
        except InvalidPayment as exc:
            pay_error(exc.message, as_json=as_json, amount=amount, field="code")
    item_list = parse_items(items, as_json, amount)
    if cashier_id is not None:
        try:
            signed_cashier(settings, cashier_id, PinReader(True) if pin_stdin else None)
        except CashierError as exc:
            pay_error(exc.message + " " + _("Nothing was charged."), as_json=as_json,
                      amount=amount, field="cashier")
    elif pin_stdin:
        pay_error(_("--pin-stdin checks the PIN of --cashier ID: give --cashier too. Nothing "
                    "was charged."), as_json=as_json, amount=amount, field="cashier")
    # the checkout's own rules, before a customer is asked to scan, in the options' names
    problem = description_problem(description)
    if problem is not None:
        pay_error(str(problem.with_params(field="--description")), as_json=as_json,
                  amount=amount, field="description")
    problem = items_problem(item_list, amount)
    if problem is not None:
        pay_error(str(problem.with_params(field="--item", amount_field="--amount")),
                  as_json=as_json, amount=amount, field="item")
    if scanner_spec is not None:
        from pos_terminal.cli.ui_cmds import scanner_unusable
        from pos_terminal.counter import missing_device

        problem = missing_device(scanner_spec)
        if problem is not None:
            pay_error(scanner_unusable(scanner_spec, problem), as_json=as_json, amount=amount,
                      field="scanner")
        try:
            code = read_scan(settings, scanner_spec, scan_timeout)
        except InvalidPayment as exc:
            pay_error(exc.message, as_json=as_json, amount=amount, field=exc.field)
        except (ValueError, OSError) as exc:
            pay_error(_("the scanner {spec} cannot be used: {error}").format(
                spec=repr(scanner_spec), error=exc), as_json=as_json, amount=amount,
                field="scanner")
    assert code is not None
    return PayRequest(amount, code, item_list)
