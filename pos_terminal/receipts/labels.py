"""The words printed on a receipt, one set per language (part B swaps in gettext ones)."""

from __future__ import annotations

from dataclasses import dataclass

from pos_terminal import wallet_registry


@dataclass(frozen=True)
class ReceiptLabels:
    sale_title: str
    refund_title: str
    reprint: str
    tax_id: str
    counter: str
    cashier: str
    time: str
    total: str
    refund_amount: str
    method: str
    method_quick_pay: str
    method_gateway: str
    wallet_transaction: str
    order: str
    refund_id: str
    original_payment: str
    wallet_refund: str
    no_cashier: str
    thanks: str
    original_amount: str
    authorised_by: str
    copies: tuple[str, str]  # `[printer] copies = 2`: the customer's, then the shop's
    customer_signature: str
    cashier_signature: str
    payment: str  # the item line of a sale with no items and no description
    wallet: str = "Wallet"
    #: under the title of a payment's receipt: where its money is when it is not the sale's
    charged_late: str = "CHARGED LATE: NOT FOR THIS SALE"
    returned: str = "RETURNED TO THE CUSTOMER"
    #: a shop QR paid in part, its rest collected at the till: that part, under the total and
    #: the part that came through the wallet
    collected_otherwise: str = "  another way"
    #: the language of these words ("vi"): each wallet's name is its declaration's in it
    language: str = "en"
    #: a wallet's name as these receipts print it instead of its declaration's
    wallet_names: tuple[tuple[str, str], ...] = ()

    def wallet_name(self, provider: str) -> str:
        """The wallet's name as its declaration prints it in this language (an
        unknown key as written)."""
        chosen = dict(self.wallet_names).get(provider)
        if chosen is not None:
            return chosen
        known = wallet_registry.wallets().get(provider)
        return known.receipt_name(self.language) if known is not None else provider


ENGLISH = ReceiptLabels(
    sale_title="RECEIPT",
    refund_title="REFUND RECEIPT",
    reprint="*** REPRINT ***",
    tax_id="Tax ID",
    counter="Counter",
    cashier="Cashier",
    time="Time",
    total="TOTAL",
    refund_amount="TOTAL REFUNDED",
    method="Method",
    method_quick_pay="Wallet quick pay",
    method_gateway="Payment gateway",
    wallet_transaction="Wallet txn",
    order="Order",
    refund_id="Refund",
    original_payment="Payment",
    wallet_refund="Wallet refund",
    no_cashier="-",
    thanks="Thank you!",
    original_amount="Original sale",
    authorised_by="Authorised by",
    copies=("Copy 1: customer", "Copy 2: merchant"),
    customer_signature="Customer's signature",
    cashier_signature="Cashier's signature",
    payment="Payment",
)

VIETNAMESE = ReceiptLabels(
    sale_title="PHIẾU THANH TOÁN",  # not HÓA ĐƠN: that is the legal e-invoice
    refund_title="PHIẾU HOÀN TIỀN",
    reprint="*** IN LẠI ***",
    tax_id="MST",
    counter="Quầy",
    cashier="Thu ngân",
    time="Thời gian",
    total="TỔNG CỘNG",
    refund_amount="TỔNG TIỀN HOÀN",
    method="Hình thức",
    method_quick_pay="Ví điện tử (quét mã)",
    method_gateway="Cổng thanh toán",
    wallet_transaction="Mã GD ví",
    order="Mã đơn",
    refund_id="Mã hoàn tiền",
    original_payment="GD gốc",
    wallet_refund="Mã hoàn ví",
    no_cashier="-",
    thanks="Cảm ơn quý khách!",
    original_amount="Số tiền GD gốc",
    authorised_by="Người duyệt",
    copies=("Liên 1: giao khách hàng", "Liên 2: lưu tại cửa hàng"),
    customer_signature="Chữ ký khách hàng",
    cashier_signature="Chữ ký thu ngân",
    payment="Thanh toán",
    wallet="Ví",
    charged_late="THU MUỘN: KHÔNG THUỘC ĐƠN NÀY",
    returned="ĐÃ HOÀN TIỀN CHO KHÁCH",
    collected_otherwise="  thu cách khác",
    language="vi",
)

LABELS: dict[str, ReceiptLabels] = {"en": ENGLISH, "vi": VIETNAMESE}
