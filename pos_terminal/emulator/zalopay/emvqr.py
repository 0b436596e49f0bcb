"""An EMVCo merchant-presented QR string for the v2 create answer's ``qr_code``.

The layout of ZaloPay's published samples (../shared/spec/wallet-api-notes.md): a dynamic
(``01``=12) multi-function payload that ZaloPay's app reads by tag 26 (``vn.zalopay``) and any
Vietnamese banking app by tag 38 (NAPAS ``A000000727``, the bank BIN and the receiving account,
service ``QRIBFTTA``: transfer to an account), with the order's reference in 62/08 and the
CRC-16/CCITT-FALSE of everything before it in 63.
"""

from __future__ import annotations

ZALOPAY_GUID = "vn.zalopay"
NAPAS_GUID = "A000000727"
NAPAS_SERVICE = "QRIBFTTA"
#: The emulator's receiving bank (a BIN of the Vietnamese bank list) and its account prefix.
BANK_BIN = "970454"
MCC = "7399"  # business services
VND = "704"
REFERENCE_MAX = 25  # EMVCo 62/08


def _tlv(tag: str, value: str) -> str:
    if len(value) > 99:
        raise ValueError(f"tag {tag}: a value of {len(value)} characters (at most 99)")
    return f"{tag}{len(value):02d}{value}"


def crc16_ccitt(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, as EMVCo tag 63 requires."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


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
    beneficiary = _tlv("00", BANK_BIN) + _tlv("01", account_of(merchant_id))
    napas = _tlv("00", NAPAS_GUID) + _tlv("01", beneficiary) + _tlv("02", NAPAS_SERVICE)
    payload = (
        _tlv("00", "01") + _tlv("01", "12") + _tlv("26", zalopay) + _tlv("38", napas)
        + _tlv("52", MCC) + _tlv("53", VND) + _tlv("54", str(amount)) + _tlv("58", "VN")
        + _tlv("62", _tlv("08", ref)) + "6304"
    )
    return payload + f"{crc16_ccitt(payload.encode('ascii')):04X}"
