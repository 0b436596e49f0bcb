"""Print the receipt after every settled payment or refund ([printer] auto = true, with a
target): a listener of PaymentSettled / RefundSettled. A printer that fails never touches the
payment: the bus logs it and tells the front ends (ListenerFailed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pos_terminal.counter.events import PaymentSettled, RefundSettled

if TYPE_CHECKING:
    from pos_terminal.counter.session import Counter

#: Settled at the counter, with the customer there (not later in the background).
AT_THE_COUNTER = ("pay", "follow", "gateway", "refund")


def register(counter: Counter) -> None:
    printer = counter.settings.printer
    if not (printer.auto and printer.target):
        return

    def on_settled(event: PaymentSettled | RefundSettled) -> None:
        from pos_terminal.receipts.service import print_receipt

        if event.via not in AT_THE_COUNTER:
            return
        if isinstance(event, PaymentSettled) and event.paid:
            subject = event.view.app_trans_id
            cashier = event.view.cashier_id
        elif isinstance(event, RefundSettled) and event.refunded:
            subject, cashier = event.refund.m_refund_id, event.refund.cashier_id
        else:
            return
        print_receipt(counter.checkout.journal, counter.settings, subject, cashier_id=cashier)

    counter.bus.subscribe((PaymentSettled, RefundSettled), on_settled, name="receipt printer")
