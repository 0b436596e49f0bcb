"""MoMo's demo customers: each shows a fresh ``MM`` + 18 digits code per payment; the first two
digits say who it is, the rest are random (the emulator remembers every code it issued)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Customer:
    id: str
    name: str
    number: str  # the code's first two digits
    behaviour: str  # paid | processing | balance | hold
    balance: int


CUSTOMERS: tuple[Customer, ...] = (
    Customer("momo-paid", "Chị Lan (MoMo, pays at once)", "11", "paid", 50_000_000),
    Customer("momo-slow", "Anh Minh (MoMo, confirms in the app)", "22", "processing",
             50_000_000),
    Customer("momo-poor", "Cô Hoa (MoMo, balance too low)", "33", "balance", 0),
    Customer("momo-hold", "Bác Tâm (MoMo, held, then captured)", "44", "hold", 50_000_000),
)
CUSTOMER_IDS = tuple(c.id for c in CUSTOMERS)
BY_NUMBER = {c.number: c for c in CUSTOMERS}
