"""Parts of the checkout's wallet port that many wallets share, written once: a wallet that only
takes the codes its customers show (no shop QR, no bank list), and order ids a terminal makes up
(request_fields.new_order_id). A wallet's class inherits the ones that fit it."""

from __future__ import annotations

from typing import NoReturn

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import BankList, HostedOrder, HostedOrderAnswer
from pos_terminal.wallets import request_fields
from pos_terminal.wallets.errors import FieldError


class TerminalOrderIds:
    """Order and refund ids ``<terminal>-<ms><random>`` (a refund's marked ``R``)."""

    _terminal_id: str

    def new_order_id(self, now_ms: int) -> str:
        return request_fields.new_order_id(self._terminal_id, now_ms)

    def new_refund_id(self, now_ms: int) -> str:
        return request_fields.new_order_id(self._terminal_id, now_ms, "R")


class CustomerPresentedOnly:
    """A wallet that charges the code its customer shows: it makes no QR for the customer to
    scan (refused before anything is recorded) and lists no banks."""

    #: the wallet's name, for the refusal's sentence
    wallet_name: str

    def _no_hosted_orders(self) -> NoReturn:
        raise FieldError("order", Reason.of("wallet.no_hosted_orders", wallet=self.wallet_name))

    def check_hosted_order(self, order: HostedOrder) -> None:
        self._no_hosted_orders()

    def create_hosted_order(self, order: HostedOrder) -> HostedOrderAnswer:
        self._no_hosted_orders()

    def list_banks(self) -> BankList:
        return BankList(banks_by_pmcid={}, raw={})
