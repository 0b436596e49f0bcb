"""A sale as the Sale screen hands it on to be charged: the amount, description and items."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SaleItem:
    name: str
    price: int
    quantity: int

    @property
    def total(self) -> int:
        return self.price * self.quantity


@dataclass(frozen=True)
class Sale:
    amount: int
    description: str
    items: tuple[SaleItem, ...]


@dataclass(frozen=True)
class NextSale:
    """How the cashier left a Result: the next sale's first digits (typed on the Result), or
    the same sale again (retry after NOT PAID)."""

    digits: str = ""
    retry: bool = False
