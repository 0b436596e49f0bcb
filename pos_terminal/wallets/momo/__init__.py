"""MoMo (Quick Pay v2, POS scanner): its fields, signing, result-code table and account, and
its client behind the checkout's wallet port (``MomoWallet``)."""

from pos_terminal.wallets.momo.account import MomoAccount
from pos_terminal.wallets.momo.wallet import GENERATION, MomoWallet

__all__ = ["GENERATION", "MomoAccount", "MomoWallet"]
