"""A second wallet provider, "Sổ Xanh", as a package of its own: what adding a provider takes.

It implements the checkout's wallet port (pos_terminal.checkout.ports.WalletPort) in the
terminal's own types (pos_terminal.base.wallet_types) and imports nothing of
pos_terminal.wallets.zalopay, the ZaloPay package. Its service is kept in memory (no second
provider's service exists here): a charge is confirmed by the customer in the app, so it answers
"processing" first and "paid" to a later status query, like a wallet that asks for a PIN.
"""

from tests.checkout.second_wallet.provider import SoXanhService, SoXanhWallet

__all__ = ["SoXanhService", "SoXanhWallet"]
