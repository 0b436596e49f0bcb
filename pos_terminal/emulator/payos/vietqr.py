"""A VietQR (EMVCo) string as payOS's `qrCode` carries one (shared/spec/payos.md, "qrCode"):
NAPAS's tag 38 only (any bank app), the transfer content in 62/08; its fields and CRC are the
ones every EMVCo string of the emulator uses (emulator/emv.py)."""

from __future__ import annotations

from pos_terminal.emulator.emv import VND, napas, tlv, with_crc


def vietqr(bank_bin: str, account: str, amount: int, description: str) -> str:
    return with_crc(tlv("00", "01") + tlv("01", "12") + tlv("38", napas(bank_bin, account))
                    + tlv("53", VND) + tlv("54", str(amount)) + tlv("58", "VN")
                    + tlv("62", tlv("08", description)))
