"""Slips of totals (X and Z reports, a shift's settlement) laid out for the paper like the
receipts: the shop's name and address, a title, labelled facts (counter, cashier, period), then
labelled lines of a count and an amount. A label wraps; an amount is never cut (it moves to a
line of its own when the label leaves it no room). The words come from the front end, already
in the cashier's language: a slip is a list of labelled lines, so a new kind of line (e.g. one
per wallet provider) is one more SlipLine."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from pos_terminal.base.money import format_vnd
from pos_terminal.receipts.content import Shop, _Lines, shop_header
from pos_terminal.text_safety import clean

COUNT_WIDTH = 4
MIN_LABEL = 8  # narrower than this, the label takes its own line(s) and the numbers the next


@dataclass(frozen=True)
class SlipLine:
    """`label ... count   amount`; `note` is printed under it, wrapped. A line with neither a
    count nor an amount is a sub-heading."""

    label: str
    count: int | None = None
    amount: int | None = None
    note: str = ""


RULE = SlipLine("\x00rule")  # a dashed line across the paper


@dataclass(frozen=True)
class Slip:
    title: str
    facts: tuple[tuple[str, str], ...] = ()   # (label, value) under the title
    lines: tuple[SlipLine, ...] = ()
    reprint: str = ""                         # the reprint mark, when this is one
    signature: str = ""                       # a signature line's label at the end
    footer: tuple[str, ...] = field(default=())  # centred lines after everything


def _numbers(line: SlipLine) -> str:
    count = "" if line.count is None else f"{line.count:>{COUNT_WIDTH}}"
    if line.amount is None:
        return count
    amount = format_vnd(line.amount)
    return f"{count}  {amount}" if count else amount


def _labelled(lines: _Lines, line: SlipLine) -> None:
    width = lines.width
    label = clean(line.label)
    right = _numbers(line)
    room = width - len(right) - 1
    if not right:
        lines.out += textwrap.wrap(label, width) or [""]
    elif len(label) <= room:
        lines.out.append(label + right.rjust(width - len(label)))
    elif room >= MIN_LABEL:
        parts = textwrap.wrap(label, room, break_long_words=True) or [""]
        lines.out += parts[:-1]
        lines.out.append(parts[-1] + right.rjust(width - len(parts[-1])))
    else:
        lines.out += textwrap.wrap(label, width, break_long_words=True) or [""]
        if len(right) <= width:
            lines.out.append(right.rjust(width))
        else:  # the count and the amount each on a line of their own
            lines.out += [part.strip().rjust(width) for part in right.split("  ") if part]
    if line.note:
        lines.out += textwrap.wrap(clean(line.note), width, initial_indent="  ",
                                   subsequent_indent="  ", break_long_words=True)


def slip_lines(slip: Slip, *, shop: Shop, width: int) -> tuple[str, ...]:
    """The slip as lines `width` characters wide (32, 42 or 48 on paper; any on a screen)."""
    lines = _Lines(width)
    shop_header(lines, shop)
    lines.center(slip.title)
    if slip.reprint:
        lines.center(slip.reprint)
    for label, value in slip.facts:
        lines.pair(label, value)
    lines.rule()
    for line in slip.lines:
        if line is RULE:
            lines.rule()
        else:
            _labelled(lines, line)
    if slip.lines and slip.lines[-1] is not RULE:
        lines.rule()
    if slip.signature:
        lines.out += ["", clean(slip.signature), "", "", "_" * min(width, 30)]
    for text in slip.footer:
        lines.center(text)
    return tuple(lines.out)
