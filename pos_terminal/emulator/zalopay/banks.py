"""The bank list the emulated gateway offers: realistic Vietnamese banks, grouped by pmcid."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

# The wallet channel (pmcid 38) as the real service names it: its gateway shows a QR code to scan
# with the wallet app for this bank code.
WALLET_APP = "zalopayapp"


@dataclass(frozen=True)
class BankDto:
    bankcode: str
    name: str
    displayorder: int
    pmcid: int
    minamount: int
    maxamount: int


_ATM = (
    ("VCB", "Vietcombank"), ("VTB", "VietinBank"), ("BIDV", "BIDV"), ("AGB", "Agribank"),
    ("TCB", "Techcombank"), ("ACB", "ACB"), ("MB", "MB Bank"), ("VPB", "VPBank"),
    ("TPB", "TPBank"), ("SCB", "Sacombank"), ("VIB", "VIB"), ("SHB", "SHB"),
    ("EIB", "Eximbank"), ("HDB", "HDBank"), ("OCB", "OCB"), ("MSB", "MSB"),
)

BANKS: tuple[BankDto, ...] = (
    BankDto(WALLET_APP, "Wallet app (scan the QR code)", 1, 38, 1_000, 100_000_000),
    BankDto("CC", "Visa / Mastercard / JCB", 2, 36, 10_000, 200_000_000),
    BankDto("CCDB", "Visa / Mastercard debit", 3, 41, 10_000, 200_000_000),
    *(BankDto(code, name, 10 + i, 39, 10_000, 50_000_000) for i, (code, name) in enumerate(_ATM)),
    *(BankDto(f"{code}ACC", f"{name} (bank account)", 40 + i, 37, 10_000, 300_000_000)
      for i, (code, name) in enumerate(_ATM[:5])),
)
BY_CODE = {bank.bankcode: bank for bank in BANKS}


def banks_by_pmcid() -> dict[str, list[dict[str, Any]]]:
    """The ``banks`` member of the bank list answer (pmcid as a string key, like the JSON)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for bank in sorted(BANKS, key=lambda b: (b.pmcid, b.displayorder)):
        grouped.setdefault(str(bank.pmcid), []).append(asdict(bank))
    return grouped
