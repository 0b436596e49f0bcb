"""`[providers.momo]` beside `[service]` (issue 31): a counter takes ZaloPay, MoMo or both; the
old files keep working; MoMo's secrets are never repeated; each wallet's code pattern is
checked; the scanners keep MoMo's "MM..." codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from pos_terminal.config import load_settings
from tests.test_config import CONTRACT, PUBLIC_KEY, error_of, write

SECRET = "s3cr3t-momo-key-never-shown"
MOMO = f"""
[providers.momo]
base_url = "https://test-payment.momo.vn"
partner_code = "MOMOXYZ01"
access_key = "access-key-1"
secret_key = "{SECRET}"
public_key = "{PUBLIC_KEY}"
store_id = "S01"
store_name = "Quầy 1"
"""


def test_an_old_file_takes_zalopay_alone_as_before(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, CONTRACT), env={})
    assert settings.wallets == ("zalopay",)
    assert settings.providers.momo is None
    assert settings.scan_alphabet == "0123456789"  # as before
    assert settings.code_pattern("zalopay") == r"^[0-9]+$"


def test_momo_beside_zalopay(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, CONTRACT + MOMO), env={})
    momo = settings.providers.momo
    assert momo is not None and settings.wallets == ("zalopay", "momo")
    assert (momo.auto_capture, momo.timeout_s, momo.code_pattern) == (
        True, 30.0, r"^MM[0-9]{18}$")
    assert momo.environment == "production"  # by its host name
    assert set("Mm") <= set(settings.scan_alphabet)  # no scan source drops an MM... code
    assert settings.longest_request_s >= 30.0  # a sender's lease covers MoMo's wait
    assert SECRET not in repr(settings) and SECRET not in str(settings.model_dump())


def test_momo_alone(tmp_path: Path) -> None:
    text = CONTRACT.replace("timeout_s = 10", "timeout_s = 10\nenabled = false") + MOMO
    assert load_settings(write(tmp_path, text), env={}).wallets == ("momo",)


def test_no_wallet_at_all_is_refused(tmp_path: Path) -> None:
    text = CONTRACT.replace("timeout_s = 10", "timeout_s = 10\nenabled = false")
    error = error_of(write(tmp_path, text))
    assert "no wallet is enabled" in str(error)


@pytest.mark.parametrize(("change", "key", "words"), [
    ('timeout_s = 10\n', "[providers.momo] timeout_s", "greater than or equal to 30"),
    ('code_pattern = "^MM[0-9"\n', "[providers.momo] code_pattern", "not a regular expression"),
    ('base_url = "http://momo.example"\n', "[providers.momo] base_url", "plain http://"),
    ('secret_key = 12345\n', "[providers.momo] secret_key", "not shown"),
])
def test_a_wrong_momo_setting_names_its_key(tmp_path: Path, change: str, key: str,
                                           words: str) -> None:
    name = change.split(" =")[0]
    lines = [line for line in MOMO.splitlines() if not line.startswith(name + " ")]
    error = error_of(write(tmp_path, CONTRACT + "\n".join(lines) + "\n" + change))
    assert key in str(error) and words in str(error)
    assert SECRET not in str(error) and "12345" not in str(error)


def test_a_readable_file_with_momo_s_secret_is_refused_outside_the_emulator(
        tmp_path: Path) -> None:
    error = error_of(write(tmp_path, CONTRACT.replace('key1 = "k1"\nkey2 = "k2"\n', "")
                           + MOMO, mode=0o644), env={"POS_KEY1": "a", "POS_KEY2": "b"})
    assert "holds secrets" in str(error) and SECRET not in str(error)
