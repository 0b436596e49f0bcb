"""ShopeePay behind the checkout's wallet port: the terminal's own types to ShopeePay's CPM calls
and back. An errcode is read through the table (codes.py); errcode 0 through the transaction's
status. A code not final, or not listed, is no information (check again), never "not paid".
"""

from __future__ import annotations

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import NoAnswer, NotSent, UnreadableAnswer
from pos_terminal.base.wallet_types import (
    ChargeAnswer,
    Order,
    PreparedCharge,
    Refund,
    RefundAnswer,
    ServiceCheck,
    WalletOutcome,
)
from pos_terminal.wallets.answer_mapping import charge_outcome, refund_outcome
from pos_terminal.wallets.code_table import CodeClass, CodeRow, Operation
from pos_terminal.wallets.port_parts import CustomerPresentedOnly, TerminalOrderIds

from . import codes
from .client import WALLET_NAME, Account, PreparedPay, ShopeePayAnswer, ShopeePayClient

GENERATION = "shopeepay-cpm-v3"
_STATUS_CODE = 100_000  # a status, journaled as a code beside the errcodes: 100003 = status 3


def _row(answer: ShopeePayAnswer, operation: Operation) -> CodeRow:
    """The row that decides: errcode 0's transaction status, else the errcode's row."""
    if answer.errcode == codes.SUCCESS and answer.status in codes.STATUSES:
        en, vi, cls = codes.STATUSES[answer.status]
        if cls is CodeClass.PAID and operation in (Operation.REFUND, Operation.REFUND_STATUS):
            cls = CodeClass.REFUNDED
        return CodeRow(operation, answer.errcode, answer.status, cls, en, vi,
                       codes.STATUS_SOURCE)
    if answer.errcode == codes.SUCCESS:  # no transaction, or a status not published
        return CodeRow(operation, 0, answer.status, CodeClass.NO_INFORMATION,
                       "success without a transaction's status", "thành công nhưng không có "
                       "trạng thái giao dịch", codes.STATUS_SOURCE)
    return codes.TABLE.classify(operation, answer.errcode)


def _why(row: CodeRow, answer: ShopeePayAnswer, outcome: WalletOutcome, refund: bool) -> Reason:
    code = answer.errcode
    if outcome is WalletOutcome.PAID:
        return Reason.of("refund.done" if refund else "paid")
    if outcome is WalletOutcome.PROCESSING:
        return Reason.of("refund.processing" if refund else "processing")
    if outcome is WalletOutcome.NOT_FOUND:
        return Reason.of("refund.not_found" if refund else "not_found")
    if outcome is WalletOutcome.DECLINED:
        if code == 42 and not refund:
            return Reason.of("declined.balance")
        return Reason.of("refund.failed.code" if refund else "declined.code",
                         code=code, detail=row.meaning_en, detail_vi=row.meaning_vi)
    return Reason.of("unknown.no_information", wallet=WALLET_NAME, code=code,
                     detail=answer.message or row.meaning_en)


class ShopeePayWallet(TerminalOrderIds, CustomerPresentedOnly):
    """The checkout's WalletPort over ShopeePay's CPM API (the code the customer shows: no QR
    for the customer to scan, no bank list)."""

    generation: str = GENERATION
    wallet_name: str = WALLET_NAME

    def __init__(self, account: Account, *, terminal_id: str,
                 client: ShopeePayClient | None = None) -> None:
        self.account = account
        self.client = client if client is not None else ShopeePayClient(account)
        self._terminal_id = terminal_id

    @staticmethod
    def _code(answer: ShopeePayAnswer) -> int:
        return _STATUS_CODE + answer.status if (
            answer.errcode == codes.SUCCESS and answer.status is not None) else answer.errcode

    def charge_answer(self, answer: ShopeePayAnswer, operation: Operation) -> ChargeAnswer:
        row = _row(answer, operation)
        outcome = charge_outcome(row.cls)
        if outcome is WalletOutcome.NOT_FOUND and operation is not Operation.STATUS:
            outcome = WalletOutcome.REFUSED_REQUEST  # only a check's 4 is "not found"
        return ChargeAnswer(
            outcome=outcome, why=_why(row, answer, outcome, refund=False),
            return_code=answer.errcode, sub_return_code=answer.status,
            service_message=answer.message, code=self._code(answer),
            order_id=answer.reference_id, transaction_id=answer.transaction_sn,
            amount=answer.amount, duplicate=answer.errcode == codes.DUPLICATE)

    def refund_answer(self, answer: ShopeePayAnswer, operation: Operation) -> RefundAnswer:
        row = _row(answer, operation)
        outcome = refund_outcome(row.cls)
        if outcome is WalletOutcome.NOT_FOUND and operation is not Operation.REFUND_STATUS:
            outcome = WalletOutcome.REFUSED_REQUEST
        return RefundAnswer(
            outcome=outcome, why=_why(row, answer, outcome, refund=True),
            return_code=answer.errcode, sub_return_code=answer.status,
            service_message=answer.message, code=self._code(answer),
            refund_id=answer.reference_id,
            provider_refund_id=answer.transaction_sn if outcome is WalletOutcome.PAID
            else None)

    # --- charges ----------------------------------------------------------------------------
    def prepare_charge(self, order: Order, payment_code: str) -> PreparedCharge:
        prepared = self.client.prepare_pay(order.order_id, order.amount, payment_code)
        return PreparedCharge(order, prepared.payload_hash, prepared)

    def send_charge(self, prepared: PreparedCharge) -> ChargeAnswer:
        sealed = prepared.sealed
        if not isinstance(sealed, PreparedPay):
            raise TypeError("this charge was not prepared by the ShopeePay wallet")
        return self.charge_answer(self.client.send_pay(sealed), Operation.QUICK_PAY)

    def query_charge(self, order_id: str, amount: int) -> ChargeAnswer:
        return self.charge_answer(self.client.check(order_id, codes.PAYMENT_TYPE, amount),
                                  Operation.STATUS)

    # --- refunds ----------------------------------------------------------------------------
    def check_refund(self, refund: Refund) -> None:
        self.client.check_refund(refund.order_id, refund.refund_id, refund.amount)

    def refund(self, refund: Refund) -> RefundAnswer:
        answer = self.client.refund(refund.order_id, refund.refund_id, refund.amount)
        return self.refund_answer(answer, Operation.REFUND)

    def query_refund(self, refund_id: str, order_id: str, amount: int) -> RefundAnswer:
        """A check on the refund's own reference, type 15, with the refund's amount."""
        return self.refund_answer(self.client.check(refund_id, codes.REFUND_TYPE, amount),
                                  Operation.REFUND_STATUS)

    def check_service(self, probe_order_id: str) -> tuple[ServiceCheck, str]:
        """A signed check of a payment that does not exist: "not found" (4) means ShopeePay
        took the terminal's signature; 2 (permission) that it did not."""
        try:
            answer = self.client.check(probe_order_id, codes.PAYMENT_TYPE, 1_000)
        except NotSent as exc:
            return ServiceCheck.UNREACHABLE, exc.cause
        except (NoAnswer, UnreadableAnswer) as exc:
            return ServiceCheck.UNREACHABLE, str(exc.message)
        said = f"{WALLET_NAME} errcode {answer.errcode}: {answer.message}"
        if answer.errcode == codes.NOT_FOUND:
            return ServiceCheck.OK, f"{WALLET_NAME} answers and accepts this terminal's signature"
        if answer.errcode == 2:
            return ServiceCheck.CREDENTIALS_WRONG, said
        if answer.errcode in (-2, -1, 1800):
            return ServiceCheck.BUSY, said
        return ServiceCheck.REFUSED, said

    def close(self) -> None:
        self.client.close()
