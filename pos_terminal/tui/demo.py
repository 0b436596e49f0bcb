"""The demo's customer: picks one of the emulator's wallets and holds its current payment code
up to the synthetic camera (or, with a real webcam, points at the emulator's wallet page)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

from pos_terminal import wallet_registry
from pos_terminal.base.i18n import _
from pos_terminal.sentences.labels import wallet_name


@dataclass(frozen=True)
class DemoWallet:
    id: str
    name: str
    behaviour: str
    provider: str  # whose code the customer shows: the wallet's name


def demo_wallets() -> tuple[DemoWallet, ...]:
    """The emulator's stable customers (docs/CONTRACTS.md), each wallet's as it declares them
    (pos_terminal/wallet_registry.py), in the registry's order: every outcome of each wallet
    can be shown."""
    return tuple(DemoWallet(customer.id, customer.name, customer.behaviour, declared.name)
                 for declared in wallet_registry.wallets().values()
                 for customer in declared.demo_customers)


DEMO_WALLETS = demo_wallets()


@dataclass(frozen=True)
class DemoPerson:
    id: str
    name: str
    pin: str
    supervisor: bool = False


#: Who works at the demo counter: the demo opens signed in as the cashier; F12 closes her shift
#: and the sign-in screen names both (README, "The demo").
DEMO_CASHIER = DemoPerson("lan", "Nguyễn Thị Lan", "1111")
DEMO_SUPERVISOR = DemoPerson("minh", "Trần Văn Minh", "9999", supervisor=True)
DEMO_PEOPLE = (DEMO_CASHIER, DEMO_SUPERVISOR)


def demo_people_hint() -> str:
    """The sign-in screen's line in a demo: the ids and PINs to type."""
    return _("Demo: cashier {cashier} PIN {cashier_pin} · supervisor {supervisor} PIN "
             "{supervisor_pin}").format(
        cashier=DEMO_CASHIER.id, cashier_pin=DEMO_CASHIER.pin,
        supervisor=DEMO_SUPERVISOR.id, supervisor_pin=DEMO_SUPERVISOR.pin)


class DemoController:
    """`show` holds a code up to the synthetic camera (None takes it away); without it the demo
    runs with a real camera and the person holds up a phone showing `wallet_page_url`."""

    def __init__(self, emulator_url: str, show: Callable[[str | None], None] | None, *,
                 show_after_s: float = 1.5, control_token: str | None = None,
                 folder: Path | None = None) -> None:
        self.emulator_url = emulator_url.rstrip("/")
        self.folder = folder  # what the demo leaves behind: journal, CSV exports, slips
        self.show_after_s = show_after_s  # how long after the Pay screen opens
        self._show = show
        self.index = 0
        self.customers = demo_wallets()  # the registry's now (an installed wallet's too)
        self._lock = threading.Lock()
        self._session = requests.Session()
        if control_token is not None:  # the emulator is bound beyond loopback (guard.py)
            self._session.headers["Authorization"] = f"Bearer {control_token}"

    @property
    def synthetic(self) -> bool:
        return self._show is not None

    @property
    def wallet_page_url(self) -> str:
        return f"{self.emulator_url}/wallets"

    def customer_page(self, provider: str) -> str | None:
        """Where the demo's customer pays `provider`'s shown QR (its emulator page), if it has
        one."""
        declared = wallet_registry.wallets().get(provider)
        if declared is None or declared.demo_page is None:
            return None
        return self.emulator_url + declared.demo_page

    def customer_pages(self) -> list[str]:
        """One line per wallet whose shown QR the demo's customer pays on a page."""
        return [_("{wallet}: the customer pays a shown QR at {url}").format(
                    wallet=wallet_name(name), url=url)
                for name in wallet_registry.wallets()
                if (url := self.customer_page(name)) is not None]

    @property
    def wallet(self) -> DemoWallet:
        return self.customers[self.index]

    def describe(self) -> str:
        return _("{name} ({behaviour}, key {key})").format(
            name=self.wallet.name, behaviour=_(self.wallet.behaviour), key=self.key)

    @property
    def key(self) -> str:
        """The key that chooses the current customer: 1-9 for the first nine, else 0 (the key
        that goes on to the next customer), so that any number of customers fits."""
        return str(self.index + 1) if self.index < 9 else "0"

    def select_index(self, index: int) -> None:
        if 0 <= index < len(self.customers):
            self.index = index

    def cycle(self) -> None:
        self.index = (self.index + 1) % len(self.customers)

    def current_code(self) -> str:
        """A fresh code of the chosen wallet (rotated first: codes are single use)."""
        # every wallet's emulator part issues its customer a new code the same way
        issued = self._session.post(
            f"{self.emulator_url}/_emulator/{self.wallet.provider}/customers/"
            f"{self.wallet.id}/code", json={}, timeout=5)
        issued.raise_for_status()
        return str(issued.json()["code"])

    def present_code(self) -> None:
        """Blocking (HTTP): run it in a worker."""
        if self._show is None:
            return
        code = self.current_code()
        with self._lock:
            self._show(code)

    def withdraw(self) -> None:
        if self._show is not None:
            with self._lock:
                self._show(None)

    def close(self) -> None:
        self._session.close()
