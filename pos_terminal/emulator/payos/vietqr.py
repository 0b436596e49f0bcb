"""A VietQR (EMVCo) string as payOS's `qrCode` carries one (shared/spec/payos.md, "qrCode")."""

from __future__ import annotations


def _tlv(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def crc16_ccitt_false(text: str) -> str:
    crc = 0xFFFF
    for byte in text.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def vietqr(bank_bin: str, account: str, amount: int, description: str) -> str:
    napas = _tlv("00", "A000000727") + _tlv("01", _tlv("00", bank_bin) + _tlv("01", account)) \
        + _tlv("02", "QRIBFTTA")
    body = (_tlv("00", "01") + _tlv("01", "12") + _tlv("38", napas) + _tlv("53", "704")
            + _tlv("54", str(amount)) + _tlv("58", "VN") + _tlv("62", _tlv("08", description))
            + "6304")
    return body + crc16_ccitt_false(body)
