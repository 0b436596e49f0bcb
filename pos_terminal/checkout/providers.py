"""The wallet providers a counter takes, by name: a payment goes to one of them, and everything
after it (its status queries, its refunds, reconciliation) to the provider its row names.

The checkout imports no provider: the counter (counter/wallets.py) builds each one and hands
them over as `Providers`. A scanned code is routed by the providers' code patterns (matched
whole, upper or lower case alike); a code that matches none or more than one is never sent: the
front end asks the cashier (`WalletChoiceNeeded.candidates`) or refuses. With one provider
every code goes to it, as before there was a second: its service is the judge of its codes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from pos_terminal.base.codes import mask_code
from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import FIRST_PROVIDER
from pos_terminal.checkout.errors import CheckoutError
from pos_terminal.checkout.ports import WalletPort


class UnknownProvider(CheckoutError):
    """A wallet this counter does not take was named (`pay --provider`, the API's "provider")."""

    def __init__(self, provider: str, provided: Sequence[str]) -> None:
        super().__init__(Reason.of("refused.wallet_unknown", wallet=provider,
                                   wallets=", ".join(provided)))
        self.provider = provider


class WalletChoiceNeeded(CheckoutError):
    """A scanned code matches no wallet's code pattern, or several: it was not sent anywhere.
    `candidates` are the wallets to choose between (the UI asks; the CLI, headless mode and the
    API refuse unless told which)."""

    def __init__(self, code: str, matched: tuple[str, ...], provided: tuple[str, ...]) -> None:
        key = "refused.code_many_wallets" if matched else "refused.code_no_wallet"
        super().__init__(Reason.of(key, code=mask_code(code),
                                   wallets=", ".join(matched or provided)))
        self.matched = matched
        self.candidates = matched or provided


@dataclass(frozen=True)
class Provider:
    """One wallet: its name (journaled with each payment), its client and its code pattern."""

    name: str
    wallet: WalletPort
    code_pattern: str = r".+"
    _compiled: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_compiled", re.compile(self.code_pattern, re.IGNORECASE))

    def takes(self, code: str) -> bool:
        return self._compiled.fullmatch(code) is not None


class Providers:
    """The providers by name, the first one the default (the registry's first wallet this
    counter takes)."""

    def __init__(self, providers: Sequence[Provider]) -> None:
        if not providers:
            raise ValueError("a counter takes at least one wallet")
        self._by_name = {p.name: p for p in providers}
        if len(self._by_name) != len(providers):
            raise ValueError("two wallet providers of one name")
        self._order = tuple(p.name for p in providers)

    @classmethod
    def single(cls, wallet: WalletPort, name: str | None = None) -> Providers:
        """One provider: `name`, else the wallet's own `provider` attribute, else
        FIRST_PROVIDER."""
        return cls([Provider(name or str(getattr(wallet, "provider", FIRST_PROVIDER)), wallet)])

    @property
    def names(self) -> tuple[str, ...]:
        return self._order

    @property
    def default(self) -> Provider:
        return self._by_name[self._order[0]]

    def __iter__(self) -> Iterator[Provider]:
        return (self._by_name[name] for name in self._order)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def get(self, name: str) -> Provider:
        found = self._by_name.get(name)
        if found is None:
            raise UnknownProvider(name, self._order)
        return found

    def wallet(self, name: str) -> WalletPort:
        """The client of provider `name` (a row's own provider)."""
        return self.get(name).wallet

    def route(self, code: str, asked: str | None = None) -> Provider:
        """The provider a payment with `code` goes to: `asked` (checked), the only one, or the
        only one whose pattern the code matches; else WalletChoiceNeeded (nothing sent)."""
        if asked is not None:
            return self.get(asked)
        if len(self._order) == 1:
            return self.default
        matched = tuple(p.name for p in self if p.takes(code))
        if len(matched) == 1:
            return self._by_name[matched[0]]
        raise WalletChoiceNeeded(code, matched, self._order)

    def close(self) -> None:
        for provider in self:
            provider.wallet.close()


__all__ = ["FIRST_PROVIDER", "Provider", "Providers", "UnknownProvider", "WalletChoiceNeeded"]
