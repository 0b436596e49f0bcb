"""ZaloPay behind the checkout's wallet port: the terminal's own types to ZaloPay's and back.

The checkout asks for charges, status queries, refunds and hosted orders in the terminal's words
(base/wallet_types.py, checkout/ports.py). This adapter is the only place they meet ZaloPay's:
it builds QuickPayOrder / RefundRequest / GatewayOrder from them, makes the ids ZaloPay wants
(``yymmdd_`` in Vietnam time), and reads each PaymentResult / RefundResult back as a
ChargeAnswer / RefundAnswer whose outcome says what the answer means for the payment. A second
provider is another package with a class like this one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import (
    BankList,
    ChargeAnswer,
    HostedOrder,
    HostedOrderAnswer,
    Order,
    PreparedCharge,
    Refund,
    RefundAnswer,
    ServiceCheck,
)

from .client import PreparedQuickPay, WalletClient
from .ids import new_app_trans_id, new_refund_id
from .messages import EmbedData, GatewayOrder, QuickPayOrder, RefundRequest
from .probe import check_service
from .results import AnswerStatus, PaymentResult, RefundResult
from .returncodes import success_with_failure_detail

if TYPE_CHECKING:
    from pos_terminal.config import ServiceSettings


def charge_answer(result: PaymentResult, *, from_query: bool) -> ChargeAnswer:
    """A quick pay's answer (`from_query` False) or a status query's, in the terminal's words."""
    problems: tuple[Reason, ...] = ()
    if result.outcome is AnswerStatus.SUCCEEDED and success_with_failure_detail(
            result.sub_return_code):
        problems = (Reason.of("problem.failure_subcode", code=result.return_code,
                              sub_code=result.sub_return_code),)
    return ChargeAnswer(
        outcome=result.meaning, why=result.why,
        return_code=result.return_code, sub_return_code=result.sub_return_code,
        service_message=result.message, code=result.code, order_id=result.app_trans_id,
        transaction_id=result.zp_trans_id, amount=result.amount, duplicate=result.duplicate,
        problems=problems,
    )


def refund_answer(result: RefundResult, *, from_query: bool) -> RefundAnswer:
    return RefundAnswer(
        outcome=result.meaning, why=result.why,
        return_code=result.return_code, sub_return_code=result.sub_return_code,
        service_message=result.message, code=result.code, refund_id=result.m_refund_id,
        provider_refund_id=result.refund_id,
    )


class ZaloPayWallet:
    """The checkout's WalletPort, over the ZaloPay client (`client`, for what only ZaloPay has:
    redirect and callback verification)."""

    def __init__(self, client: WalletClient, *, terminal_id: str) -> None:
        self.client = client
        self.generation: str = client.generation
        self._terminal_id = terminal_id

    @classmethod
    def connect(cls, service: ServiceSettings, *, terminal_id: str,
                user_ip: str | None = None) -> ZaloPayWallet:
        return cls(WalletClient(service, user_ip=user_ip), terminal_id=terminal_id)

    # --- ids --------------------------------------------------------------------------------
    def new_order_id(self, now_ms: int) -> str:
        return new_app_trans_id(self._terminal_id, now_ms)

    def new_refund_id(self, now_ms: int) -> str:
        return new_refund_id(self.client.service.app_id, now_ms, terminal_id=self._terminal_id)

    # --- charges ----------------------------------------------------------------------------
    def _quick_pay(self, order: Order) -> QuickPayOrder:
        return QuickPayOrder(app_trans_id=order.order_id, app_user=order.customer,
                             app_time=order.created_ms, amount=order.amount,
                             description=order.description, items=order.items)

    def prepare_charge(self, order: Order, payment_code: str) -> PreparedCharge:
        """Validate, sign, encrypt; no I/O. Raises FieldError or RsaKeyError."""
        prepared = self.client.build_quick_pay(self._quick_pay(order), payment_code)
        return PreparedCharge(order, prepared.payload_hash, prepared)

    def send_charge(self, prepared: PreparedCharge) -> ChargeAnswer:
        sealed = prepared.sealed
        if not isinstance(sealed, PreparedQuickPay):
            raise TypeError("this charge was not prepared by the ZaloPay adapter")
        return charge_answer(self.client.send_quick_pay(sealed), from_query=False)

    def query_charge(self, order_id: str, amount: int) -> ChargeAnswer:
        return charge_answer(self.client.query_status(order_id), from_query=True)

    # --- refunds ----------------------------------------------------------------------------
    @staticmethod
    def _refund_request(refund: Refund) -> RefundRequest:
        return RefundRequest(m_refund_id=refund.refund_id, zp_trans_id=refund.transaction_id,
                             amount=refund.amount, description=refund.description,
                             timestamp=refund.created_ms)

    def check_refund(self, refund: Refund) -> None:
        """Refuse (FieldError) a refund ZaloPay would refuse, before anything is recorded."""
        self._refund_request(refund).validate(self.generation, self.client.service.app_id)

    def refund(self, refund: Refund) -> RefundAnswer:
        return refund_answer(self.client.refund(self._refund_request(refund)), from_query=False)

    def query_refund(self, refund_id: str, order_id: str, amount: int) -> RefundAnswer:
        """ZaloPay asks by the refund's own id: the payment's order id and the amount are not
        sent."""
        return refund_answer(self.client.query_refund(refund_id), from_query=True)

    # --- hosted orders (the gateway) --------------------------------------------------------
    def _gateway_order(self, order: HostedOrder) -> GatewayOrder:
        return GatewayOrder(app_trans_id=order.order_id, app_user=order.customer,
                            app_time=order.created_ms, amount=order.amount,
                            description=order.description,
                            embed_data=EmbedData(redirecturl=order.redirect_url),
                            bank_code=order.bank_code)

    def check_hosted_order(self, order: HostedOrder) -> None:
        self._gateway_order(order).validate(self.generation)

    def create_hosted_order(self, order: HostedOrder) -> HostedOrderAnswer:
        result = self.client.create_order(self._gateway_order(order))
        return HostedOrderAnswer(return_code=result.return_code, service_message=result.message,
                                 order_url=result.order_url, qr_code=result.qr_code,
                                 token=result.zp_trans_token)

    # --- the service itself -----------------------------------------------------------------
    def list_banks(self) -> BankList:
        return self.client.list_banks()

    def check_service(self, probe_order_id: str) -> tuple[ServiceCheck, str]:
        return check_service(self.client, probe_order_id)

    def close(self) -> None:
        self.client.close()


__all__ = ["ZaloPayWallet", "charge_answer", "refund_answer"]
