"""The demo's customer: picks one of the emulator's wallets and holds its current payment code
up to the synthetic camera (or, with a real webcam, points at the emulator's wallet page)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

from pos_terminal.base.i18n import N_, _


@dataclass(frozen=True)
class DemoWallet:
    id: str
    name: str
    behaviour: str
    provider: str = "zalopay"  # whose code the customer shows: "zalopay" or "momo"


#: The emulator's stable customers (docs/CONTRACTS.md): every outcome of each wallet can be
#: shown, ZaloPay's first, then MoMo's (emulator/momo/customers.py; `MM` + 18 digits codes).
DEMO_WALLETS = (
    DemoWallet("an", "An Nguyen", N_("pays at once")),
    DemoWallet("binh", "Binh Tran", N_("slow processing, then paid")),
    DemoWallet("chi", "Chi Le", N_("slow processing, then declined")),
    DemoWallet("dung", "Dung Pham", N_("insufficient balance")),
    DemoWallet("momo-paid", "Lan (MoMo)", N_("pays at once"), "momo"),
    DemoWallet("momo-slow", "Minh (MoMo)", N_("confirms in the app, then paid"), "momo"),
    DemoWallet("momo-poor", "Hoa (MoMo)", N_("insufficient balance"), "momo"),
    DemoWallet("momo-hold", "Tam (MoMo)", N_("held, then captured"), "momo"),
    # README's steps 5 (W/B after 2 minutes) and 7 (override a payment that needs review)
    DemoWallet("giang", "Giang Vo", N_("processing for over 2 minutes, then paid")),
    DemoWallet("khoa", "Khoa Do", N_("charged, but the answer needs review")),
)


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

    @property
    def wallet(self) -> DemoWallet:
        return DEMO_WALLETS[self.index]

    def describe(self) -> str:
        return _("{name} ({behaviour}, key {key})").format(
            name=self.wallet.name, behaviour=_(self.wallet.behaviour),
            key=(self.index + 1) % 10)  # keys 1-9, then 0

    def select_index(self, index: int) -> None:
        if 0 <= index < len(DEMO_WALLETS):
            self.index = index

    def cycle(self) -> None:
        self.index = (self.index + 1) % len(DEMO_WALLETS)

    def current_code(self) -> str:
        """A fresh code of the chosen wallet (rotated first: codes are single use)."""
        wallet_id = self.wallet.id
        if self.wallet.provider == "momo":  # the emulator issues a MoMo customer a new code
            issued = self._session.post(
                f"{self.emulator_url}/_emulator/momo/customers/{wallet_id}/code", json={},
                timeout=5)
            issued.raise_for_status()
            return str(issued.json()["code"])
        rotate = self._session.post(
            f"{self.emulator_url}/_emulator/wallets/{wallet_id}/rotate", json={}, timeout=5)
        rotate.raise_for_status()
        answer = self._session.get(f"{self.emulator_url}/_emulator/wallets", timeout=5)
        answer.raise_for_status()
        for wallet in answer.json()["wallets"]:
            if wallet["id"] == wallet_id:
                return str(wallet["code"])
        raise LookupError(f"the emulator has no wallet {wallet_id!r}")

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
