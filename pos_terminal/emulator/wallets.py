"""The emulator's reading of the wallet registry (pos_terminal/wallet_registry.py): which
endpoints a fault rule may name and which customers, as each wallet declares them.

Only names are read here: each wallet's emulator part checks requests with its own code."""

from __future__ import annotations

from pos_terminal import wallet_registry


def endpoint_names() -> tuple[str, ...]:
    """Every endpoint a fault rule may name: each wallet's declared fault endpoints."""
    return tuple(dict.fromkeys(
        endpoint for declared in wallet_registry.wallets().values()
        for endpoint in declared.fault_endpoints))


def fault_wallet_ids() -> tuple[str, ...]:
    """What a fault rule may name as its wallet: the house service's wallets and every
    wallet's declared customers."""
    return tuple(dict.fromkeys(
        customer.id for declared in wallet_registry.wallets().values()
        for customer in declared.demo_customers))


def takes_any_code(endpoint: str) -> bool:
    """Whether a fault may answer `endpoint` with any whole number as its result code (the
    wallet's own table) rather than a negative one (a wallet whose service's errors are negative
    codes, as it declares: `negative_error_codes`)."""
    return not any(endpoint in declared.fault_endpoints
                   for declared in wallet_registry.wallets().values()
                   if declared.negative_error_codes)
