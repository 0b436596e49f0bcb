"""An EMVCo merchant-presented QR string (VietQR layout) for the v2 create answer's ``qr_code``."""

from __future__ import annotations


def _tlv(tag: str, value: str) -> str:
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


def emv_qr(merchant_id: str, amount: int, reference: str) -> str:
    account = _tlv("00", "A000000727") + _tlv("01", merchant_id[:99])
    payload = (
        _tlv("00", "01") + _tlv("01", "12") + _tlv("38", account) + _tlv("53", "704")
        + _tlv("54", str(amount)) + _tlv("58", "VN") + _tlv("62", _tlv("08", reference[:25]))
        + "6304"
    )
    return payload + f"{crc16_ccitt(payload.encode('ascii')):04X}"
