"""A VietQR (EMVCo) string as payOS's `qrCode` carries one (shared/spec/payos.md, "qrCode"):
NAPAS's tag 38 only (any bank app), the transfer content in 62/08; its CRC is the one every
EMVCo string of the emulator uses (ZaloPay's part's `crc16_ccitt`)."""

from __future__ import annotations

from pos_terminal.emulator.zalopay.emvqr import NAPAS_GUID, NAPAS_SERVICE, VND, crc16_ccitt


def _tlv(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def vietqr(bank_bin: str, account: str, amount: int, description: str) -> str:
    napas = _tlv("00", NAPAS_GUID) + _tlv("01", _tlv("00", bank_bin) + _tlv("01", account)) \
        + _tlv("02", NAPAS_SERVICE)
    body = (_tlv("00", "01") + _tlv("01", "12") + _tlv("38", napas) + _tlv("53", VND)
            + _tlv("54", str(amount)) + _tlv("58", "VN") + _tlv("62", _tlv("08", description))
            + "6304")
    return body + f"{crc16_ccitt(body.encode('ascii')):04X}"
