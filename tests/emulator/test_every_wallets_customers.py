"""Every wallet's emulator part issues its declared demo customers a fresh code the same way
(`/_emulator/<wallet>/customers/<id>/code`), so the demo's picker needs nothing of any wallet;
a fault rule may name any declared customer and any declared endpoint."""

from __future__ import annotations

from typing import Any

import requests

from pos_terminal import wallet_registry
from pos_terminal.emulator import fault_wallet_ids, parse_rule


def test_each_declared_customer_gets_a_fresh_code(emulator: Any) -> None:
    for declared in wallet_registry.wallets().values():
        for customer in declared.demo_customers:
            url = (f"{emulator.base_url}/_emulator/{declared.name}/customers/{customer.id}"
                   "/code")
            first = requests.post(url, json={}, timeout=5)
            second = requests.post(url, json={}, timeout=5)
            assert first.status_code == second.status_code == 200, (declared.name, customer.id)
            assert first.json()["code"] != second.json()["code"]  # codes are single use


def test_faults_name_every_declared_customer_and_endpoint() -> None:
    for declared in wallet_registry.wallets().values():
        for customer in declared.demo_customers:
            assert customer.id in fault_wallet_ids()
        for endpoint in declared.fault_endpoints:
            assert parse_rule({"endpoint": endpoint, "mode": "drop"},
                              fault_wallet_ids()).endpoint == endpoint
