"""ShopeePay's demo customers: each shows a fresh ``SPC`` + 17 digits code per payment; the
first two digits say who it is, the rest are random (the emulator remembers every code it
issued)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Customer:
    id: str
    name: str
    number: str  # the code's first two digits after "SPC"
    behaviour: str  # paid | processing | balance
    balance: int


CUSTOMERS: tuple[Customer, ...] = (
    Customer("spay-paid", "Chị Ngọc (ShopeePay, pays at once)", "51", "paid", 50_000_000),
    Customer("spay-slow", "Anh Quân (ShopeePay, processing, then paid)", "52", "processing",
             50_000_000),
    Customer("spay-declined", "Cô Vy (ShopeePay, balance too low)", "53", "balance", 0),
)
CUSTOMER_IDS = tuple(c.id for c in CUSTOMERS)
BY_NUMBER = {c.number: c for c in CUSTOMERS}
