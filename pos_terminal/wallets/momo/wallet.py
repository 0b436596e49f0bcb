"""MoMo behind the checkout's wallet port: the terminal's own types to MoMo's calls and back.

Each answer's result code is read through MoMo's table (codes.py): a final code is a verdict, a
code not final or not listed is no information (ask again), never "not paid". In the two-step
flow (``auto_capture = false``) a payment answered 9000 is AUTHORISED: the checkout captures it,
or cancels it when the cashier has given up (checkout/two_step.py); ``capture`` and ``void``
answer PAID (captured) and DECLINED (released) in the same words.
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

from . import codes, fields
from .account import MomoAccount
from .client import MomoAnswer, MomoClient, PreparedPay

GENERATION = "momo-pos-v2"

_REFUSED_CREDENTIALS = (11, 13)
_MAINTENANCE = 10


def _why_charge(row: CodeRow, answer: MomoAnswer) -> Reason:
    code = answer.result_code
    if row.cls is CodeClass.PAID:
        return Reason.of("paid")
    if row.cls is CodeClass.PROCESSING:
        return Reason.of("processing")
    if row.cls is CodeClass.NOT_CHARGED:
        if code == 1001:
            return Reason.of("declined.balance")
        if code == codes.CANCELLED_AFTER_AUTHORISED:
            return Reason.of("two_step.voided", wallet=fields.WALLET_NAME)
        return Reason.of("declined.code", code=code, detail=row.meaning_en)
    if code in _REFUSED_CREDENTIALS:
        return Reason.of("refused.provider_credentials", wallet=fields.WALLET_NAME, code=code)
    if code == _MAINTENANCE:
        return Reason.of("refused.maintenance")
    return Reason.of("unknown.no_information", wallet=fields.WALLET_NAME, code=code,
                     detail=answer.message)


class MomoWallet(TerminalOrderIds, CustomerPresentedOnly):
    """The checkout's WalletPort (and its two-step capture / void) over MoMo's POS API. It
    charges the code the customer shows: no QR for the customer to scan, no bank list."""

    generation: str = GENERATION
    wallet_name: str = fields.WALLET_NAME

    def __init__(self, account: MomoAccount, *, terminal_id: str,
                 client: MomoClient | None = None) -> None:
        self.account = account
        self.client = client if client is not None else MomoClient(account)
        self._terminal_id = terminal_id

    # --- answers ----------------------------------------------------------------------------
    def charge_answer(self, answer: MomoAnswer, operation: Operation) -> ChargeAnswer:
        """A payment's, a status query's or a confirm's answer in the terminal's words."""
        code = answer.result_code
        row = codes.TABLE.classify(operation, code)
        outcome = charge_outcome(row.cls)
        why = _why_charge(row, answer)
        if code == codes.AUTHORISED and operation in codes.PAYMENT_CALLS:
            # MoMo: with autoCapture the payment "can be considered successful"
            outcome = WalletOutcome.PAID if self.account.auto_capture else (
                WalletOutcome.AUTHORISED)
            why = Reason.of("paid") if self.account.auto_capture else Reason.of(
                "two_step.authorised", wallet=fields.WALLET_NAME)
        elif code == codes.ORDER_NOT_FOUND and operation is Operation.STATUS:
            outcome, why = WalletOutcome.NOT_FOUND, Reason.of("not_found")
        if operation is Operation.CANCEL and outcome is WalletOutcome.PAID:
            # the cancel is done: the held money went back, nothing is charged
            outcome, why = WalletOutcome.DECLINED, Reason.of("two_step.voided",
                                                             wallet=fields.WALLET_NAME)
        return ChargeAnswer(
            outcome=outcome, why=why, return_code=code, sub_return_code=None,
            service_message=answer.message, code=code, order_id=answer.order_id,
            transaction_id=answer.trans_id, amount=answer.amount,
            duplicate=code == codes.DUPLICATED_REQUEST_ID)

    # --- charges ----------------------------------------------------------------------------
    def prepare_charge(self, order: Order, payment_code: str) -> PreparedCharge:
        """Check (MoMo's limits first), encrypt, sign; no I/O."""
        prepared = self.client.prepare_pay(order.order_id, order.amount,
                                           order.description or order.order_id, payment_code)
        return PreparedCharge(order, prepared.payload_hash, prepared)

    def send_charge(self, prepared: PreparedCharge) -> ChargeAnswer:
        sealed = prepared.sealed
        if not isinstance(sealed, PreparedPay):
            raise TypeError("this charge was not prepared by the MoMo wallet")
        return self.charge_answer(self.client.send_pay(sealed), Operation.QUICK_PAY)

    def query_charge(self, order_id: str, amount: int) -> ChargeAnswer:
        return self.charge_answer(self.client.query(order_id), Operation.STATUS)

    # --- two-step: capture or cancel an authorised payment ----------------------------------
    def capture(self, order_id: str, amount: int) -> ChargeAnswer:
        """PAID: captured; anything else decides nothing (the status query says)."""
        return self.charge_answer(self.client.confirm(order_id, amount, fields.CAPTURE),
                                  Operation.CAPTURE)

    def void(self, order_id: str, amount: int) -> ChargeAnswer:
        """DECLINED: cancelled, the held money back with the customer; anything else decides
        nothing (the status query says)."""
        return self.charge_answer(self.client.confirm(order_id, amount, fields.CANCEL),
                                  Operation.CANCEL)

    # --- refunds ----------------------------------------------------------------------------
    def check_refund(self, refund: Refund) -> None:
        self.client.check_refund(refund.refund_id, refund.transaction_id, refund.amount,
                                 refund.description)

    def _refund_answer(self, refund_id: str, code: int, message: str,
                       trans_id: str | None) -> RefundAnswer:
        row = codes.TABLE.classify(Operation.REFUND, code)
        outcome = refund_outcome(row.cls)
        why = {WalletOutcome.PAID: Reason.of("refund.done"),
               WalletOutcome.PROCESSING: Reason.of("refund.processing"),
               WalletOutcome.DECLINED: Reason.of("refund.failed.code", code=code,
                                                 detail=row.meaning_en)}.get(
                   outcome, Reason.of("unknown.no_information", wallet=fields.WALLET_NAME,
                                      code=code, detail=message))
        return RefundAnswer(outcome=outcome, why=why, return_code=code, sub_return_code=None,
                            service_message=message, code=code, refund_id=refund_id,
                            provider_refund_id=trans_id if outcome is WalletOutcome.PAID
                            else None)

    def refund(self, refund: Refund) -> RefundAnswer:
        answer = self.client.refund(refund.refund_id, refund.transaction_id, refund.amount,
                                    refund.description)
        return self._refund_answer(refund.refund_id, answer.result_code, answer.message,
                                   answer.trans_id)

    def query_refund(self, refund_id: str, order_id: str, amount: int) -> RefundAnswer:
        """MoMo has no refund status call for POS: the payment's status query lists its
        refunds (refundTrans); one not listed is "not found" (the grace period applies)."""
        answer = self.client.query(order_id)
        for item in answer.refund_trans:
            if item.order_id == refund_id:
                return self._refund_answer(refund_id, item.result_code, answer.message,
                                           item.trans_id)
        return RefundAnswer(outcome=WalletOutcome.NOT_FOUND, why=Reason.of("refund.not_found"),
                            return_code=answer.result_code, sub_return_code=None,
                            service_message=answer.message, code=answer.result_code,
                            refund_id=refund_id)

    # --- the service itself -----------------------------------------------------------------
    def check_service(self, probe_order_id: str) -> tuple[ServiceCheck, str]:
        """A signed status query about an order that does not exist: "not found" means MoMo
        took the terminal's signature."""
        try:
            answer = self.client.query(probe_order_id)
        except NotSent as exc:
            return ServiceCheck.UNREACHABLE, exc.cause
        except (NoAnswer, UnreadableAnswer) as exc:
            return ServiceCheck.UNREACHABLE, str(exc.message)
        code = answer.result_code
        if code in _REFUSED_CREDENTIALS:
            return ServiceCheck.CREDENTIALS_WRONG, f"MoMo result {code}: {answer.message}"
        if code == _MAINTENANCE:
            return ServiceCheck.BUSY, f"MoMo result {code}: {answer.message}"
        if code == codes.ORDER_NOT_FOUND:
            return ServiceCheck.OK, "MoMo answers and accepts this terminal's signature"
        return ServiceCheck.REFUSED, f"MoMo result {code}: {answer.message}"

    def close(self) -> None:
        self.client.close()
