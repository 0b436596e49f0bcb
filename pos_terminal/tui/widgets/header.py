"""The top line: which service we talk to (badge), whether it answers, how many payments
are still waiting for reconciliation and, with a fleet ledger, how far behind its sync is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal

from pos_terminal.base.i18n import N_, _
from pos_terminal.tui.widgets.line import Line

BADGES = {"emulator": N_("EMULATOR"), "sandbox": N_("SANDBOX"), "production": N_("PRODUCTION")}


class StatusHeader(Horizontal):
    def __init__(self, environment: str, terminal_id: str) -> None:
        super().__init__(classes="status-header")
        self.environment = environment
        self.terminal_id = terminal_id

    def compose(self) -> ComposeResult:
        state = getattr(self.app, "header_state", {})
        yield Line(f" {_(BADGES.get(self.environment, self.environment.upper()))} ",
                   classes=f"badge badge-{self.environment}")
        yield Line(self._title(state.get("cashier")), classes="title")
        for text, classes in (self._reach(state.get("service")),
                              self._pending(state.get("pending"))):
            yield Line(text, classes=classes)
        if state.get("ledger") is not None:  # only with a fleet ledger configured
            text, classes = self._ledger(state["ledger"])
            yield Line(text, classes=classes)

    def _title(self, cashier: str | None) -> str:
        """Who is signed in, with the key that signs out (no room for it in the footer)."""
        if cashier is None:
            return f"pos-terminal · {self.terminal_id}"
        name = cashier if len(cashier) <= 20 else cashier[:19] + "…"
        return _("{terminal} · {name} (F12 sign out)").format(terminal=self.terminal_id,
                                                             name=name)

    @staticmethod
    def _reach(service: str | None) -> tuple[str, str]:
        """From the signed check (wallet/probe.py): "ok" only once a signed call succeeded."""
        if service is None:
            return _("checking…"), "reach"
        if service == "ok":
            return _("service ok"), "reach good"
        return {
            "wrong": _("credentials WRONG"),
            "unreachable": _("service UNREACHABLE"),
            "busy": _("service BUSY"),
        }.get(service, _("service REFUSES")), "reach bad"

    @staticmethod
    def _pending(pending: int | None) -> tuple[str, str]:
        if pending is None:
            return _("pending …"), "pending"
        return (_("{count} to reconcile").format(count=pending),
                "pending warn" if pending else "pending")

    @staticmethod
    def _ledger(line: str) -> tuple[str, str]:
        """`ledger: N behind` (SyncStatus.line), highlighted while anything waits."""
        quiet = line.startswith("ledger: 0 behind") and "unreachable" not in line
        return line, "ledger" if quiet else "ledger warn"

    def show(self, state: Mapping[str, Any]) -> None:
        for title in self.query(".title").results(Line):
            title.update(self._title(state.get("cashier")))
        if state.get("ledger") is not None:
            text, classes = self._ledger(state["ledger"])
            lines = list(self.query(".ledger").results(Line))
            if not lines:
                self.mount(Line(text, classes=classes))
            for widget in lines:
                widget.update(text)
                widget.set_classes(classes)
        for label, (text, classes) in (
                (".reach", self._reach(state.get("service"))),
                (".pending", self._pending(state.get("pending")))):
            for widget in self.query(label).results(Line):
                widget.update(text)
                widget.set_classes(classes)
