"""The wallets this terminal knows: each one's declaration, read by everything that lists wallets.

A wallet is a package that declares, in one `WalletDeclaration` (its `WALLET`), everything the
rest of the terminal needs about it: its name and the names people read, its settings model and
section, its default code pattern and the letters its codes use, its longest request, its
secrets, its result-code table, how its client is built, what it can do, and its emulator part
with its demo customers and fault endpoints. The configuration, the scan sources, the labels,
the CLI's choices, the emulator, the demo and the reports read this registry; nothing outside a
wallet's own folders names it.

The built-in wallets are listed in `BUILT_IN`; any installed distribution adds one through the
entry-point group ``pos_terminal.wallets`` (its value: ``package.module:WALLET``). Declarations
are loaded by name (importlib), so this module imports no wallet, and the configuration and the
emulator (which must import no wallet client) may read it.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from pos_terminal.base import i18n

#: The entry-point group a separately installed wallet registers its declaration under.
ENTRY_POINT_GROUP = "pos_terminal.wallets"

#: The wallets that come with the terminal, in the order screens and reports list them.
BUILT_IN = (
    "pos_terminal.wallets.zalopay.declaration:WALLET",
    "pos_terminal.wallets.momo.declaration:WALLET",
    "pos_terminal.wallets.shopeepay.declaration:WALLET",
    "pos_terminal.wallets.payos.declaration:WALLET",
)


@dataclass(frozen=True)
class Capabilities:
    """What a wallet can do: the customer shows a code the cashier scans (customer-presented),
    the shop shows a QR the customer scans, a payment is held then captured, refunds, partial
    refunds."""

    customer_presented: bool = True
    shop_qr: bool = False
    #: the shop's QR is closed at the provider when the cashier gives it up (payOS's cancel);
    #: else it stays payable until it expires (ZaloPay's gateway order)
    shop_qr_cancels: bool = False
    hold_capture: bool = False
    refund: bool = True
    partial_refund: bool = True


@dataclass(frozen=True)
class DemoCustomer:
    """A customer of the wallet's emulator part the demo can hold up to the camera.
    `behaviour` is English, translated where shown (its words are in the catalogs)."""

    id: str
    name: str
    behaviour: str


@dataclass(frozen=True)
class WalletSentences:
    """The sentences a wallet brings of its own, in English (the msgids) with their
    translations, shown in the cashier's language like the terminal's own.

    `reasons`: its own reason codes, each named ``<wallet>.<what>`` ("lotus.declined.frozen"),
    -> its English sentence, whose ``{parameters}`` are the reason's (formatted as every
    reason's are: sentences/__init__.py). `translations`: language -> English text -> its
    translation, for its reasons and for any other text of its own a person reads (its demo
    customers' behaviours); a `.po` file of its own gives one with `base.i18n.read_po_file`.
    A text with no translation is shown in English; the terminal's catalogs keep their own
    translation of a text they already have."""

    reasons: Mapping[str, str] = field(default_factory=dict)
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class WalletDeclaration:
    """Everything the terminal needs to know about one wallet (see the module's docstring).

    `section` is where its settings live in the configuration: ``service`` (ZaloPay's, the
    external contract) or ``providers.<name>``. `client` and `emulator` are ``module:attr``
    references, resolved only when used: `client` a function (Settings) -> the checkout's
    wallet port; `emulator` the wallet's `pos_terminal.emulator.parts.EmulatorPart`."""

    name: str
    display_names: Mapping[str, str]
    section: str
    settings_model: type[Any]
    default_code_pattern: str
    client: str
    receipt_names: Mapping[str, str] = field(default_factory=dict)
    #: the characters its codes hold besides digits (added to the scan sources' alphabet)
    code_letters: str = ""
    #: the longest one request may wait (connect + read), from its settings section
    request_s: Callable[[Any], float] = lambda section: float(
        section.connect_timeout_s + section.timeout_s)
    #: the keys of its section never repeated in a message
    secret_settings: tuple[str, ...] = ()
    #: its result-code table (a `pos_terminal.wallets.code_table.CodeTable` or its own shape)
    codes: object | None = None
    capabilities: Capabilities = Capabilities()
    emulator: str | None = None
    demo_customers: tuple[DemoCustomer, ...] = ()
    #: its emulator part's endpoints a fault rule may name
    fault_endpoints: tuple[str, ...] = ()
    #: ``module:function`` (Settings, base_url, gateway_url) -> its section's values pointing
    #: it at the demo's emulator (its demo merchant); None: the demo leaves it out
    demo_settings: str | None = None
    #: the emulator's page (a path) where the demo's customer pays this wallet's shown QR, as
    #: a bank app would; the demo names it (started, F10, and when such a QR is shown)
    demo_page: str | None = None
    #: ``module:function`` (Settings, raw body bytes) -> the wallet's order id a notice it
    #: POSTs to the terminal (its webhook, `POST /v1/webhooks/<name>`) is about, once its
    #: signature is checked; raises `base.wallet_errors.NoticeRefused` (a reason) otherwise.
    #: The notice is never believed: it only makes the terminal ask the wallet. None: no webhook
    webhook: str | None = None
    #: ``module:function`` (Settings, url) -> what the wallet says of its webhook now going to
    #: `url` (names, never secrets), or a `base.wallet_errors.WalletError`: how
    #: `pos-terminal register-webhook` registers it. None: registered elsewhere, or no webhook
    register_webhook: str | None = None
    #: the sentences it brings of its own (its reasons, its texts) in every language
    sentences: WalletSentences = WalletSentences()
    #: its service's errors are negative result codes (ZaloPay's house service): a fault rule
    #: on its endpoints answers a negative `return_code` only; else any whole number of its table
    negative_error_codes: bool = False

    def display_name(self, language: str) -> str:
        """Its name as a cashier reads it in `language` ("Ví MoMo"); English if none."""
        return self.display_names.get(language) or self.display_names.get("en") or self.name

    def receipt_name(self, language: str) -> str:
        """Its name as a receipt prints it in `language`; its display name if none."""
        return self.receipt_names.get(language) or self.display_name(language)

    @property
    def providers_key(self) -> str | None:
        """Its table's name under ``[providers]`` ("momo"), None for ``[service]``."""
        prefix = "providers."
        return self.section[len(prefix):] if self.section.startswith(prefix) else None

    def build_client(self, settings: Any) -> Any:
        """Its client as `settings` configure it (no I/O yet)."""
        return resolve(self.client)(settings)


def resolve(reference: str) -> Any:
    """The object a ``module:attr`` reference names."""
    module, _, attr = reference.partition(":")
    found: Any = importlib.import_module(module)
    for part in attr.split("."):
        found = getattr(found, part)
    return found


class WalletRegistryError(Exception):
    """A wallet's declaration cannot be loaded or clashes with another: the sentence says which."""


_lock = threading.Lock()
_loaded: dict[str, WalletDeclaration] | None = None


def _load() -> dict[str, WalletDeclaration]:
    found: dict[str, WalletDeclaration] = {}
    references = [(ref, ref) for ref in BUILT_IN] + [
        (f"{point.value} (entry point {point.name!r})", point.value)
        for point in entry_points(group=ENTRY_POINT_GROUP)]
    for where, reference in references:
        try:
            declaration = resolve(reference)
        except Exception as exc:
            raise WalletRegistryError(
                f"the wallet declared at {where} cannot be loaded: {exc}") from exc
        if not isinstance(declaration, WalletDeclaration):
            raise WalletRegistryError(f"{where} is not a WalletDeclaration")
        known = found.get(declaration.name)
        if known is not None and known is not declaration:
            raise WalletRegistryError(
                f"two wallets are named {declaration.name!r} ({where} and another)")
        _check_sentences(declaration, where)
        found[declaration.name] = declaration
    for declaration in found.values():
        _add_translations(declaration)
    return found


def _check_sentences(declaration: WalletDeclaration, where: str) -> None:
    """Its reason codes are its own (``<name>.``), and a translation keeps its text's
    placeholders (else a sentence would fail when shown): a sentence saying which if not."""
    prefix = f"{declaration.name}."
    for code in declaration.sentences.reasons:
        if not code.startswith(prefix):
            raise WalletRegistryError(
                f"{where}: the reason code {code!r} must begin with {prefix!r}")
    for language, table in declaration.sentences.translations.items():
        if language not in i18n.LANGUAGES:
            raise WalletRegistryError(
                f"{where}: sentences in {language!r}; the terminal speaks "
                f"{', '.join(i18n.LANGUAGES)}")
        for text, translated in table.items():
            if i18n.placeholders(text) != i18n.placeholders(translated):
                raise WalletRegistryError(
                    f"{where}: the {language} translation of {text!r} has the placeholders "
                    f"{i18n.placeholders(translated)}, not {i18n.placeholders(text)}")


def _add_translations(declaration: WalletDeclaration) -> None:
    for language, table in declaration.sentences.translations.items():
        i18n.add_translations(language, table)


def wallets() -> Mapping[str, WalletDeclaration]:
    """Every known wallet by name: the built-in ones first, then the installed ones."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = _load()
        return _loaded


def wallet(name: str) -> WalletDeclaration:
    """The declaration of wallet `name` (KeyError naming the known ones)."""
    known = wallets()
    try:
        return known[name]
    except KeyError:
        raise KeyError(f"unknown wallet {name!r}; known: {', '.join(known)}") from None


def names() -> tuple[str, ...]:
    """The known wallets' names, in the registry's order."""
    return tuple(wallets())


def in_order(keys: Iterable[str]) -> list[str]:
    """`keys` (wallet names a report holds) in the registry's order; names it does not know (a
    wallet installed at another counter) after them, alphabetically."""
    known = names()
    return sorted(keys, key=lambda key: (known.index(key) if key in known else len(known), key))


def register(declaration: WalletDeclaration) -> None:
    """Add a wallet at run time (a test's, or a program that embeds the terminal)."""
    global _loaded
    _check_sentences(declaration, f"the wallet {declaration.name!r}")
    with _lock:
        current = dict(_loaded if _loaded is not None else _load())
        current[declaration.name] = declaration
        _loaded = current
    _add_translations(declaration)


def reason_sentence(code: str) -> str | None:
    """The English sentence of reason `code` if a known wallet brings it (its `sentences`)."""
    name = code.partition(".")[0]
    try:
        declared = wallets().get(name)
    except WalletRegistryError:  # said where the configuration is read; here, the code shows
        return None
    return None if declared is None else declared.sentences.reasons.get(code)


def forget(name: str) -> None:
    """Remove a wallet added with `register` (tests)."""
    global _loaded
    with _lock:
        if _loaded is not None:
            _loaded = {key: value for key, value in _loaded.items() if key != name}
