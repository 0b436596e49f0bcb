"""What every EMVCo merchant-presented QR string of the emulator shares (VietQR: NAPAS's
tag 38, which any Vietnamese banking app reads): the tag-length-value fields, the receiving
account's field and the CRC-16/CCITT-FALSE of tag 63. Each wallet's part that shows a QR lays
out its own string with them, in its own folder."""

from __future__ import annotations

NAPAS_GUID = "A000000727"
NAPAS_SERVICE = "QRIBFTTA"  # transfer to an account
VND = "704"


def tlv(tag: str, value: str) -> str:
    """One field: its tag, its length in two digits, its value (at most 99 characters)."""
    if len(value) > 99:
        raise ValueError(f"tag {tag}: a value of {len(value)} characters (at most 99)")
    return f"{tag}{len(value):02d}{value}"


def napas(bank_bin: str, account: str) -> str:
    """Tag 38's value: NAPAS, the receiving bank (its BIN) and account, a transfer to it."""
    return (tlv("00", NAPAS_GUID) + tlv("01", tlv("00", bank_bin) + tlv("01", account))
            + tlv("02", NAPAS_SERVICE))


def crc16_ccitt(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, as EMVCo tag 63 requires."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def with_crc(payload: str) -> str:
    """`payload` (every field before tag 63) closed by tag 63: the CRC of all before it."""
    body = payload + "6304"
    return body + f"{crc16_ccitt(body.encode('ascii')):04X}"
