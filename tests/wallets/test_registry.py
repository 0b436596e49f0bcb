"""The wallet registry (pos_terminal/wallet_registry.py): a wallet declared once is known to the
configuration ([providers.<name>], its code pattern, letters, lease and secrets), the labels, the
receipts and the CLI's choices, with no other file changed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from pos_terminal import wallet_registry
from pos_terminal.cli import main as cli
from pos_terminal.config import load_settings
from pos_terminal.receipts.labels import ENGLISH, VIETNAMESE
from pos_terminal.sentences.labels import wallet_name
from pos_terminal.wallet_registry import Capabilities, WalletDeclaration
from tests.test_config import CONTRACT, error_of, write

SECRET = "Zq9-never-repeated-0042"


class KiwiSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    base_url: str
    token: SecretStr = Field(min_length=8)
    timeout_s: float = 40.0
    connect_timeout_s: float = 2.0
    code_pattern: str = r"^KW[0-9]{6}$"
    enabled: bool = True


KIWI = WalletDeclaration(
    name="kiwi", display_names={"en": "Kiwi Pay", "vi": "Ví Kiwi"}, section="providers.kiwi",
    settings_model=KiwiSettings, default_code_pattern=r"^KW[0-9]{6}$", code_letters="KWkw",
    client="tests.wallets.test_registry:_no_client", secret_settings=("token",),
    capabilities=Capabilities(partial_refund=False))

TABLE = f'\n[providers.kiwi]\nbase_url = "http://127.0.0.1:9"\ntoken = "{SECRET}"\n'


def _no_client(settings: object) -> object:
    raise AssertionError("not built in these tests")


@pytest.fixture
def kiwi() -> Iterator[WalletDeclaration]:
    wallet_registry.register(KIWI)
    yield KIWI
    wallet_registry.forget("kiwi")


def test_the_built_in_wallets_come_first_in_order() -> None:
    assert wallet_registry.names()[:2] == ("zalopay", "momo")
    assert wallet_registry.wallet("momo").capabilities.hold_capture


def test_a_declared_wallet_is_configured_by_its_own_table(
        tmp_path: Path, kiwi: WalletDeclaration) -> None:
    settings = load_settings(write(tmp_path, CONTRACT + TABLE), env={})
    assert settings.wallets == ("zalopay", "kiwi")
    assert settings.code_pattern("kiwi") == r"^KW[0-9]{6}$"
    assert set("KWkw") <= set(settings.scan_alphabet)
    assert settings.longest_request_s == 42.0
    assert SECRET not in repr(settings)
    changed = settings.replace_section("providers.kiwi", timeout_s=50.0)
    assert changed.request_s("kiwi") == 52.0


def test_its_secret_is_never_repeated_and_its_keys_are_checked(
        tmp_path: Path, kiwi: WalletDeclaration) -> None:
    error = str(error_of(write(tmp_path, CONTRACT + TABLE.replace(SECRET, SECRET[:5]))))
    assert "[providers.kiwi] token" in error and SECRET[:5] not in error
    error = str(error_of(write(tmp_path, CONTRACT + TABLE + "colour = 1\n")))
    assert "[providers.kiwi] colour" in error and "unknown key" in error


def test_a_table_no_wallet_declares_is_an_unknown_key(tmp_path: Path) -> None:
    error = str(error_of(write(tmp_path, CONTRACT + TABLE)))
    assert "[providers] kiwi" in error or "[providers.kiwi]" in error
    assert "unknown key" in error


def test_its_names_reach_screens_receipts_and_the_cli(kiwi: WalletDeclaration) -> None:
    assert wallet_name("kiwi") == "Kiwi Pay"
    assert (ENGLISH.wallet_name("kiwi"), VIETNAMESE.wallet_name("kiwi")) == (
        "Kiwi Pay", "Ví Kiwi")
    assert VIETNAMESE.wallet_name("momo") == "Ví MoMo"
    answer = CliRunner().invoke(cli, ["journal", "list", "--provider", "nowallet"])
    assert answer.exit_code == 2 and "kiwi" in answer.output


KIWI_FROZEN = "Kiwi Pay froze this customer's account: {amount} was not charged."
KIWI_SENTENCES = wallet_registry.WalletSentences(
    reasons={"kiwi.declined.frozen": KIWI_FROZEN},
    translations={"vi": {KIWI_FROZEN: "Ví Kiwi đã khoá tài khoản của khách: chưa trừ {amount}.",
                         "waves the kiwi": "vẫy quả kiwi",
                         "pays at once": "một bản dịch khác"}})


def test_an_installed_wallet_brings_its_own_sentences_in_both_languages() -> None:
    """Its reason reads in the language asked for, with the terminal's formatting; its other
    texts join the catalog of their language; a text the catalogs translate keeps theirs."""
    from pos_terminal.base.i18n import translate_to
    from pos_terminal.sentences import Reason, render

    frozen = Reason.of("kiwi.declined.frozen", amount=25_000)
    assert render(frozen, "vi") == "kiwi.declined.frozen (amount=25.000 ₫)"  # not known yet
    wallet_registry.register(replace(KIWI, sentences=KIWI_SENTENCES))
    try:
        assert render(frozen, "vi") == "Ví Kiwi đã khoá tài khoản của khách: chưa trừ 25.000 ₫."
        assert render(frozen, "en") == "Kiwi Pay froze this customer's account: 25.000 ₫ was " \
                                       "not charged."
        assert translate_to("vi", "waves the kiwi") == "vẫy quả kiwi"
        assert translate_to("en", "waves the kiwi") == "waves the kiwi"
        assert translate_to("vi", "pays at once") != "một bản dịch khác"
    finally:
        wallet_registry.forget("kiwi")


@pytest.mark.parametrize(("sentences", "said"), [
    (wallet_registry.WalletSentences(reasons={"declined.frozen": "Frozen."}),
     "the reason code 'declined.frozen' must begin with 'kiwi.'"),
    (wallet_registry.WalletSentences(translations={"vi": {"Frozen: {amount}.": "Bị khoá."}}),
     "the vi translation of 'Frozen: {amount}.' has the placeholders [], not ['{amount}']"),
    (wallet_registry.WalletSentences(translations={"fr": {"Frozen.": "Gelé."}}),
     "sentences in 'fr'; the terminal speaks vi, en"),
])
def test_its_sentences_are_checked_when_it_is_declared(
        sentences: wallet_registry.WalletSentences, said: str) -> None:
    with pytest.raises(wallet_registry.WalletRegistryError, match=re.escape(said)):
        wallet_registry.register(replace(KIWI, sentences=sentences))
    assert "kiwi" not in wallet_registry.names()


def test_every_built_in_demo_customer_reads_in_vietnamese() -> None:
    """A built-in wallet's demo customers' behaviours reach the catalogs from its declaration
    alone (scripts/extract-messages reads `DemoCustomer`'s third argument): no list elsewhere
    to keep in step."""
    from pos_terminal.base.i18n import translate_to

    untranslated = [(declared.name, customer.behaviour)
                    for declared in wallet_registry.wallets().values()
                    if declared.name != "kiwi"
                    for customer in declared.demo_customers
                    if translate_to("vi", customer.behaviour) == customer.behaviour]
    assert untranslated == []
