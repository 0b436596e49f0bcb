"""Print the receipt after every settled payment or refund ([printer] auto = true, with a
target): a listener of PaymentSettled / RefundSettled, the one auto-print path of every front
end. Counter.print_receipt never raises: what the printer did (or why it did not print) is
published as ReceiptPrinted for the front ends to show; the payment is never affected."""

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
        if event.via not in AT_THE_COUNTER:
            return
        if isinstance(event, PaymentSettled) and event.paid:
            subject = payment = event.view.app_trans_id
            cashier = event.view.cashier_id
        elif isinstance(event, RefundSettled) and event.refunded:
            subject, payment = event.refund.m_refund_id, event.refund.app_trans_id
            cashier = event.refund.cashier_id
        else:
            return
        # The cashier signed in at the counter prints it (the payment's own when nobody is).
        counter.receipts.print(subject, cashier_id=counter.cashiers.at_counter or cashier,
                               app_trans_id=payment)

    counter.bus.subscribe((PaymentSettled, RefundSettled), on_settled, name="receipt printer")
