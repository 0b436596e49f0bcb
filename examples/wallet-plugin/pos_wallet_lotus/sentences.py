"""The sentences Lotus Pay brings of its own, in English and Vietnamese: its declaration's
`sentences` (pos_terminal.wallet_registry.WalletSentences). The terminal shows them in the
cashier's language like its own; its catalogs need not know them.

A reason of its own is named ``lotus.<what>``; its sentence's ``{parameters}`` are the reason's,
formatted by the terminal (``amount`` as VND). The translations also cover the texts of its own a
person reads: its demo customers' behaviours (declaration.py)."""

from __future__ import annotations

from pos_terminal.wallet_registry import WalletSentences

#: Lotus Pay's result 23: the customer's account is frozen (codes.ACCOUNT_FROZEN).
FROZEN = "lotus.declined.frozen"
_FROZEN_EN = ("The customer's Lotus Pay account is frozen: {amount} was not charged. Ask the "
              "customer to call Lotus Pay or pay another way.")
#: a demo customer's behaviour (declaration.py)
ACCOUNT_FROZEN = "account frozen by Lotus Pay"

SENTENCES = WalletSentences(
    reasons={FROZEN: _FROZEN_EN},
    translations={"vi": {
        _FROZEN_EN: "Tài khoản Ví Sen của khách đang bị khoá: chưa trừ {amount}. Mời khách gọi "
                    "Ví Sen hoặc thanh toán cách khác.",
        ACCOUNT_FROZEN: "tài khoản bị Ví Sen khoá",
    }},
)
