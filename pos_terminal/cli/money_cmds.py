"""The money commands, one thin module each: pay (pay_cmd), status and reconcile (status_cmds),
refund and override (refund_cmds), journal list/show/export (journal_cmds), report x/z
(report_cmds). Each parses its options, calls a counter service and renders the answer."""

from __future__ import annotations

import click

from pos_terminal.cli import journal_cmds, pay_cmd, refund_cmds, report_cmds, status_cmds


def register(group: click.Group) -> None:
    for module in (pay_cmd, status_cmds, refund_cmds, journal_cmds, report_cmds):
        module.register(group)
