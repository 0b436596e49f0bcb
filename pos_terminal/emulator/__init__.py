"""A local stand-in for the wallet service: real HTTP on loopback, strict like the real thing.

``start_emulator(settings)`` serves it in-process (tests, demo); ``pos-terminal emulator`` in the
foreground. See "The wallet-service emulator" in README.md.
"""

from pos_terminal.emulator.faults import FaultRule, FaultSpecError, parse_rule
from pos_terminal.emulator.options import EmulatorOptions
from pos_terminal.emulator.server import (
    FAULT_WALLET_IDS,
    EmulatorControl,
    RunningEmulator,
    serve,
    start_emulator,
)
from pos_terminal.emulator.wallets import fault_wallet_ids
from pos_terminal.emulator.zalopay.state import WALLET_IDS, WALLETS

__all__ = [
    "FAULT_WALLET_IDS",
    "WALLETS",
    "WALLET_IDS",
    "EmulatorControl",
    "EmulatorOptions",
    "FaultRule",
    "FaultSpecError",
    "RunningEmulator",
    "fault_wallet_ids",
    "parse_rule",
    "serve",
    "start_emulator",
]
