"""Every wallet's emulator part issues its declared demo customers a fresh code the same way
(`/_emulator/<wallet>/customers/<id>/code`), so the demo's picker needs nothing of any wallet;
a fault rule may name any declared customer and any declared endpoint."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import requests

from pos_terminal import wallet_registry
from pos_terminal.emulator import fault_wallet_ids, parse_rule
from pos_terminal.emulator.faults import FaultSpecError
from pos_terminal.wallet_registry import WalletDeclaration


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


def test_a_fault_answers_the_codes_its_wallet_declares() -> None:
    """A wallet whose service's errors are negative codes (it says so: `negative_error_codes`)
    takes a negative `return_code` only on its endpoints; any other wallet any whole number of
    its table. No wallet is named by the emulator for it: an installed one is read the same."""
    negative = WalletDeclaration(
        name="kiwi", display_names={"en": "Kiwi Pay"}, section="providers.kiwi",
        settings_model=object, default_code_pattern=r"^KW[0-9]{6}$", client="x:y",
        fault_endpoints=("kiwi_pay",), negative_error_codes=True)
    positive = replace(negative, name="fig", fault_endpoints=("fig_pay",),
                       negative_error_codes=False)
    for declared in (negative, positive):
        wallet_registry.register(declared)
    try:
        assert parse_rule({"endpoint": "fig_pay", "mode": "refuse", "return_code": 17},
                          fault_wallet_ids()).return_code == 17
        assert parse_rule({"endpoint": "kiwi_pay", "mode": "refuse", "return_code": -17},
                          fault_wallet_ids()).return_code == -17
        with pytest.raises(FaultSpecError, match="must be a negative code"):
            parse_rule({"endpoint": "kiwi_pay", "mode": "refuse", "return_code": 17},
                       fault_wallet_ids())
        for endpoint in wallet_registry.wallet("zalopay").fault_endpoints:  # as before
            with pytest.raises(FaultSpecError, match="must be a negative code"):
                parse_rule({"endpoint": endpoint, "mode": "refuse", "return_code": 1},
                           fault_wallet_ids())
        for endpoint in wallet_registry.wallet("momo").fault_endpoints:
            assert parse_rule({"endpoint": endpoint, "mode": "refuse", "return_code": 1006},
                              fault_wallet_ids()).return_code == 1006
    finally:
        wallet_registry.forget("kiwi")
        wallet_registry.forget("fig")
