"""An EMVCo merchant-presented QR string for the v2 create answer's ``qr_code``.

The layout of ZaloPay's published samples (../shared/spec/wallet-api-notes.md): a dynamic
(``01``=12) multi-function payload that ZaloPay's app reads by tag 26 (``vn.zalopay``) and any
Vietnamese banking app by tag 38 (NAPAS ``A000000727``, the bank BIN and the receiving account,
service ``QRIBFTTA``: transfer to an account), with the order's reference in 62/08 and the
CRC-16/CCITT-FALSE of everything before it in 63.
"""

from __future__ import annotations

from pos_terminal.emulator.emv import VND, napas, with_crc
from pos_terminal.emulator.emv import tlv as _tlv

ZALOPAY_GUID = "vn.zalopay"
#: The emulator's receiving bank (a BIN of the Vietnamese bank list) and its account prefix.
BANK_BIN = "970454"
MCC = "7399"  # business services
REFERENCE_MAX = 25  # EMVCo 62/08


def reference_of(app_trans_id: str) -> str:
    """The order's reference as 62/08 holds it (its unique tail, at most 25 characters)."""
    return app_trans_id[-REFERENCE_MAX:]


def account_of(merchant_id: str) -> str:
    """The merchant's receiving account at BANK_BIN (digits, at most 19)."""
    digits = "".join(c for c in merchant_id if c.isdigit()) or "0"
    return ("99" + digits)[:19]


def emv_qr(merchant_id: str, amount: int, reference: str) -> str:
    ref = reference_of(reference)
    zalopay = (_tlv("00", ZALOPAY_GUID) + _tlv("01", merchant_id[:30]) + _tlv("02", "001")
               + _tlv("03", ref))
    return with_crc(
        _tlv("00", "01") + _tlv("01", "12") + _tlv("26", zalopay)
        + _tlv("38", napas(BANK_BIN, account_of(merchant_id)))
        + _tlv("52", MCC) + _tlv("53", VND) + _tlv("54", str(amount)) + _tlv("58", "VN")
        + _tlv("62", _tlv("08", ref)))
