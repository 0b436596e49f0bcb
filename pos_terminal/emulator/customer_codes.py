"""The codes a JSON wallet part's demo customers show, written once: a fresh code per payment
(`issue_code`), the one on screen now (`code`, replaced once used), and the customers as the
control API and the pages list them. A part's service sets `customers`, keeps `lock`, `codes`
(issued code -> the order that used it), `current` and `balances`, and says how a code is made
(`_fresh_code`)."""

from __future__ import annotations

import threading
from typing import Any


class CustomerCodes:
    customers: tuple[Any, ...]
    lock: threading.RLock
    codes: dict[str, str | None]
    current: dict[str, str]
    balances: dict[str, int]

    def _fresh_code(self, customer: Any) -> str:
        raise NotImplementedError

    def issue_code(self, customer_id: str) -> str:
        customer = next(c for c in self.customers if c.id == customer_id)
        with self.lock:
            code = self._fresh_code(customer)
            self.codes[code] = None
            self.current[customer_id] = code
            return code

    def code(self, customer_id: str) -> str:
        """The code the customer's app shows now (a used one is replaced by a fresh one)."""
        with self.lock:
            code = self.current.get(customer_id)
            if code is None or self.codes.get(code) is not None:
                return self.issue_code(customer_id)
            return code

    def customers_json(self) -> list[dict[str, Any]]:
        return [{"id": c.id, "name": c.name, "behaviour": c.behaviour, "code": self.code(c.id),
                 "balance": self.balances[c.id]} for c in self.customers]
