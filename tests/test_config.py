"""The configuration contract (docs/external-contracts.md): the contract keys load; every
mistake names the file and key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pos_terminal.config import EMULATOR_TEST_KEY, ConfigError, load_settings
from tests import shared_group
from tests.processes import child_env

REPO = Path(__file__).resolve().parent.parent
PUBLIC_KEY = (
    "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC74f3WvuTmzOvmPgDwBiaLFsQ7dEyyd2pX7p+wuyTBUH7BU2/k7ZWcmDq"
    "LqtsEouULeD7bJV4WxFiRtQg7E9j85lJC3Ghw6t0oFTa6GrpuuYQ7WTmNzwx8r7Zo0CrOfgxOHrbfr1DHMnGcvrM7A4heae"
    "4jN1yVsi+y1BEKWU0P6QIDAQAB"
)

CONTRACT = f"""
[service]
generation = "v2"
base_url = "https://sb-openapi.zalopay.vn"
gateway_url = "https://sbgateway.zalopay.vn"
app_id = 2553
key1 = "k1"
key2 = "k2"
rsa_public_key = "{PUBLIC_KEY}"
timeout_s = 10

[terminal]
journal = "~/.local/share/pos-terminal/journal.sqlite3"
app_user = "counter-1"
"""


def write(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "pos.toml"
    path.write_text(text)
    path.chmod(mode)
    return path


def error_of(path: Path, env: dict[str, str] | None = None) -> ConfigError:
    """The ConfigError loading `path` raises; where its group bits alone are meant to matter,
    loaded where its group is one other users are in (tests/shared_group.py)."""
    if path.exists() and shared_group.needs_a_shared_group(path):
        found = shared_group.config_error(path, env)
        assert found is not None, f"{path} loaded"
        return ConfigError(path, *found)
    with pytest.raises(ConfigError) as info:
        load_settings(path, env=env or {})
    return info.value


def test_a_file_with_only_the_contract_keys_works(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, CONTRACT), env={})
    assert settings.service.app_id == 2553
    assert settings.service.base_url == "https://sb-openapi.zalopay.vn"
    assert settings.service.environment == "sandbox"
    assert settings.terminal.journal == Path.home() / ".local/share/pos-terminal/journal.sqlite3"
    assert settings.terminal.terminal_id == "counter1"
    assert settings.checkout.poll_deadline_s == 120
    assert settings.scanner.code_min_length == 16
    assert settings.warnings == ()


def test_shipped_profiles_load() -> None:
    default = load_settings(REPO / "config" / "default.toml", env={})
    assert default.service.environment == "emulator"
    assert default.emulator.private_key == EMULATOR_TEST_KEY
    assert default.emulator.private_key.exists()


UNREADABLE_KEY = ("not a readable RSA public key: paste the service's public key from the "
                  "merchant portal, as base64 of the DER key or a PEM block")


@pytest.mark.parametrize("name", ["sandbox.example.toml", "production.example.toml"])
def test_example_profiles_name_the_placeholder_key(name: str) -> None:
    err = error_of(REPO / "config" / name)
    assert err.key == "[service] rsa_public_key"
    assert err.message == UNREADABLE_KEY


def test_environment_overrides_secrets(tmp_path: Path) -> None:
    text = CONTRACT.replace('key1 = "k1"\n', "").replace(
        f'rsa_public_key = "{PUBLIC_KEY}"', 'rsa_public_key = "garbage"')
    env = {"POS_KEY1": "from-env", "POS_KEY2": "k2-env", "POS_RSA_PUBLIC_KEY": PUBLIC_KEY}
    settings = load_settings(write(tmp_path, text), env=env)
    assert settings.service.key1.get_secret_value() == "from-env"
    assert settings.service.key2.get_secret_value() == "k2-env"
    assert settings.service.rsa_public_key == PUBLIC_KEY


def test_secrets_are_not_in_repr(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, CONTRACT), env={})
    assert "k1" not in repr(settings.service).replace("key1", "")
    assert PUBLIC_KEY not in repr(settings)


def test_missing_file(tmp_path: Path) -> None:
    err = error_of(tmp_path / "nope.toml")
    assert str(err) == f"{tmp_path / 'nope.toml'}: configuration file not found"


def test_not_toml(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, "[service\napp_id = 1"))
    assert err.message.startswith("not valid TOML")


def test_unknown_key(tmp_path: Path) -> None:
    text = CONTRACT.replace("timeout_s = 10", "timeout_s = 10\ntimout = 3")
    err = error_of(write(tmp_path, text))
    assert err.key == "[service] timout"
    assert "unknown key" in err.message
    assert str(err).startswith(str(tmp_path / "pos.toml"))


def test_unknown_section(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, CONTRACT + "\n[scaner]\nsource = 'wedge'\n"))
    assert err.key == "[scaner]"
    assert "unknown key" in err.message


def test_missing_key(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, CONTRACT.replace("app_id = 2553\n", "")))
    assert err.key == "[service] app_id"
    assert err.message == "missing required key"


def test_missing_section(tmp_path: Path) -> None:
    text = CONTRACT.split("[terminal]")[0]
    err = error_of(write(tmp_path, text))
    assert err.key == "[terminal]"


def test_wrong_type(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, CONTRACT.replace("app_id = 2553", 'app_id = "2553"')))
    assert err.key == "[service] app_id"
    assert "'2553'" in err.message


def test_bad_generation(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, CONTRACT.replace('"v2"', '"v3"')))
    assert err.key == "[service] generation"


@pytest.mark.parametrize("url", ["sb-openapi.zalopay.vn", "ftp://x.vn", "https://"])
def test_malformed_url(tmp_path: Path, url: str) -> None:
    text = CONTRACT.replace('"https://sb-openapi.zalopay.vn"', f'"{url}"')
    err = error_of(write(tmp_path, text))
    assert err.key == "[service] base_url"
    assert "not an http(s) URL" in err.message


def test_unreadable_rsa_key(tmp_path: Path) -> None:
    path = write(tmp_path, CONTRACT.replace(PUBLIC_KEY, PUBLIC_KEY[:40]))
    err = error_of(path)
    assert err.key == "[service] rsa_public_key"
    # one sentence, not "unreadable RSA public key: the RSA public key cannot be read: ..."
    assert str(err) == f"{path}: [service] rsa_public_key: {UNREADABLE_KEY}"


def test_blank_rsa_key_says_what_to_do(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, CONTRACT.replace(PUBLIC_KEY, "   ")))
    assert err.message == "the RSA public key is empty: paste the key from the merchant portal"


def _warning(path: Path) -> str:
    return f"{path} holds secret keys and other users can read it; run: chmod 600 {path}"


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_readable_secrets_outside_the_emulator_are_refused(tmp_path: Path, mode: int) -> None:
    path = write(tmp_path, CONTRACT, mode=mode)
    err = error_of(path)
    assert err.key is None
    assert "other users can read it; run: chmod 600 " + str(path) in err.message
    assert "k1" not in str(err) and "k2" not in str(err)
    path.chmod(0o600)
    assert load_settings(path, env={}).warnings == ()


@pytest.mark.parametrize("mode", [0o620, 0o602, 0o666])
def test_a_file_others_can_change_is_refused_even_for_the_emulator(tmp_path: Path,
                                                                   mode: int) -> None:
    shipped = (REPO / "config" / "default.toml").read_text()
    path = write(tmp_path, shipped, mode=mode)
    err = error_of(path)
    assert "other users can change this file" in err.message
    assert f"run: chmod 600 {path}" in err.message


def test_the_owners_private_group_is_the_owner(tmp_path: Path) -> None:
    """umask 002 on a user-private-group system: group bits of the owner's own group (named
    like the owner, no other member) give nobody else anything."""
    import grp
    import pwd

    me = pwd.getpwuid(os.getuid())
    group = grp.getgrgid(me.pw_gid)
    if group.gr_name != me.pw_name or set(group.gr_mem) - {me.pw_name}:
        pytest.skip(f"{me.pw_name}'s group {group.gr_name} is not a private group")
    path = tmp_path / "pos.toml"
    path.write_text(CONTRACT)
    os.chown(path, -1, me.pw_gid)
    path.chmod(0o660)
    assert load_settings(path, env={}).service.key1.get_secret_value() == "k1"


def test_the_refusals_reach_the_cli_as_one_sentence(tmp_path: Path) -> None:
    path = write(tmp_path, CONTRACT, mode=0o644)
    proc = subprocess.run(
        [sys.executable, "-m", "pos_terminal", "--config", str(path), "banks"],
        capture_output=True, text=True, timeout=60, env=child_env(POS_KEY1=""))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert f"chmod 600 {path}" in proc.stderr


def test_real_keys_draw_the_warning_whatever_the_environment(tmp_path: Path) -> None:
    # an emulator-looking profile (loopback URL) that holds keys of its own: still secrets
    text = CONTRACT.replace("https://sb-openapi.zalopay.vn", "http://127.0.0.1:8765").replace(
        "https://sbgateway.zalopay.vn", "http://127.0.0.1:8765")
    path = write(tmp_path, text, mode=0o644)
    settings = load_settings(path, env={})
    assert settings.service.environment == "emulator"
    assert settings.warnings == (_warning(path),)


def test_the_emulator_profile_public_test_keys_draw_no_warning(tmp_path: Path) -> None:
    shipped = REPO / "config" / "default.toml"
    assert load_settings(shipped, env={}).warnings == ()
    copy = write(tmp_path, shipped.read_text(), mode=0o644)
    assert load_settings(copy, env={}).warnings == ()


def test_secrets_from_the_environment_draw_no_warning(tmp_path: Path) -> None:
    # the file itself holds no secret: readable by others is fine
    text = CONTRACT.replace('key1 = "k1"\n', "").replace('key2 = "k2"\n', "")
    path = write(tmp_path, text, mode=0o644)
    settings = load_settings(path, env={"POS_KEY1": "from-env", "POS_KEY2": "k2-env"})
    assert settings.service.key1.get_secret_value() == "from-env"
    assert settings.warnings == ()


def test_cli_reports_config_error_with_exit_2_and_no_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, CONTRACT.replace("app_id = 2553", "app_id = -4"))
    proc = subprocess.run(
        [sys.executable, "-m", "pos_terminal", "--config", str(path), "banks"],
        capture_output=True, text=True, timeout=60, env=child_env(POS_KEY1=""))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        f"error: {path}: [service] app_id: Input should be greater than 0")


# --- values that are valid TOML but make no sense (finite, ranged, consistent) ------------------
@pytest.mark.parametrize(("section", "line", "key", "says"), [
    ("service", "timeout_s = nan", "[service] timeout_s", "finite number"),
    ("service", "timeout_s = inf", "[service] timeout_s", "finite number"),
    ("service", "timeout_s = 1e-9", "[service] timeout_s", "greater than or equal to 0.5"),
    ("service", "timeout_s = 0", "[service] timeout_s", "greater than or equal to 0.5"),
    ("service", "timeout_s = 1e9", "[service] timeout_s", "less than or equal to 120"),
    ("service", "connect_timeout_s = -inf", "[service] connect_timeout_s", "finite number"),
    ("service", "connect_timeout_s = 1e-9", "[service] connect_timeout_s",
     "greater than or equal to 0.1"),
    ("checkout", "poll_deadline_s = inf", "[checkout] poll_deadline_s", "finite number"),
    ("checkout", "poll_deadline_s = 1e-9", "[checkout] poll_deadline_s",
     "greater than or equal to 0.1"),
    ("checkout", "poll_intervals_s = [0.5, nan]", "[checkout] poll_intervals_s",
     "each from 0.05 to 600"),
    ("checkout", "poll_intervals_s = [1e-9]", "[checkout] poll_intervals_s",
     "each from 0.05 to 600"),
    ("checkout", "poll_intervals_s = [inf]", "[checkout] poll_intervals_s",
     "each from 0.05 to 600"),
    ("checkout", "not_found_grace_s = nan", "[checkout] not_found_grace_s", "finite number"),
    ("checkout", "status_query_window_h = 1e-9", "[checkout] status_query_window_h",
     "greater than or equal to 1"),
    ("checkout", "code_reuse_window_s = inf", "[checkout] code_reuse_window_s", "finite number"),
    ("checkout", "min_amount = 5000\nmax_amount = 1000", "[checkout] min_amount",
     "min_amount (5000) is larger than max_amount (1000)"),
    ("checkout", "max_amount = 100000000000000000000", "[checkout] max_amount",
     "less than or equal to 9007199254740991"),
    ("checkout", "max_amount = 9007199254740992", "[checkout] max_amount",
     "less than or equal to 9007199254740991"),
    ("scanner", "code_min_length = 30\ncode_max_length = 20", "[scanner] code_min_length",
     "code_min_length (30) is larger than code_max_length (20)"),
    ("scanner", "wedge_min_length = 40", "[scanner] wedge_min_length",
     "wedge_min_length (40) is larger than code_max_length (24)"),
    ("scanner", 'code_alphabet = "０１２３４５６７８９"', "[scanner] code_alphabet",
     "printable ASCII"),
    ("scanner", "debounce_s = nan", "[scanner] debounce_s", "finite number"),
    ("scanner", "wedge_max_interkey_ms = 1e-9", "[scanner] wedge_max_interkey_ms",
     "greater than or equal to 1"),
    ("emulator", "code_lifetime_s = inf", "[emulator] code_lifetime_s", "finite number"),
    ("emulator", "processing_s = nan", "[emulator] processing_s", "finite number"),
    ("ui", "result_timeout_s = 1e-9", "[ui] result_timeout_s", "greater than or equal to 0.1"),
])
def test_senseless_values_are_refused_naming_the_key(tmp_path: Path, section: str, line: str,
                                                     key: str, says: str) -> None:
    if section == "service":  # replaces timeout_s, or comes after it
        text = CONTRACT.replace("timeout_s = 10", line if line.startswith("timeout_s")
                                else f"timeout_s = 10\n{line}")
    else:
        text = CONTRACT + f"\n[{section}]\n{line}\n"
    path = write(tmp_path, text)
    err = error_of(path)
    assert (err.file, err.key) == (path, key)
    assert says in err.message
    assert str(err).startswith(f"{path}: {key}: ")


@pytest.mark.parametrize(("text", "key"), [
    (CONTRACT + "\n[checkout]\nmax_amount = nan\n", "[checkout] max_amount"),
    (CONTRACT.replace("timeout_s = 10", "timeout_s = inf"), "[service] timeout_s"),
    (CONTRACT + "\n[checkout]\nmin_amount = 9\nmax_amount = 1\n", "[checkout] min_amount"),
])
def test_cli_refuses_a_senseless_config_with_exit_2_and_no_traceback(tmp_path: Path, text: str,
                                                                      key: str) -> None:
    path = write(tmp_path, text)
    proc = subprocess.run(
        [sys.executable, "-m", "pos_terminal", "--config", str(path), "journal", "list"],
        capture_output=True, text=True, timeout=60, env=child_env(POS_KEY1=""))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"error: {path}: {key}: ")


def test_language_key_is_validated_and_defaults_from_the_locale(tmp_path: Path) -> None:
    base = (REPO / "config" / "default.toml").read_text("utf-8")
    plain = tmp_path / "plain.toml"
    plain.write_text(base, "utf-8")
    assert load_settings(plain, env={}).terminal.language == "en"
    assert load_settings(plain, env={"LANG": "vi_VN.UTF-8"}).terminal.language == "vi"
    assert load_settings(plain, env={"LC_ALL": "C.UTF-8", "LANG": "vi_VN"}).terminal.language == (
        "en")
    chosen = tmp_path / "vi.toml"
    chosen.write_text(base.replace("[terminal]\n", '[terminal]\nlanguage = "vi"\n'), "utf-8")
    assert load_settings(chosen, env={"LANG": "en_US.UTF-8"}).terminal.language == "vi"
    wrong = tmp_path / "fr.toml"
    wrong.write_text(base.replace("[terminal]\n", '[terminal]\nlanguage = "fr"\n'), "utf-8")
    with pytest.raises(ConfigError) as err:
        load_settings(wrong, env={})
    assert "[terminal] language" in str(err.value) and "'vi' or 'en'" in str(err.value)


def test_store_examples_are_vietnamese() -> None:
    for name in ("production.example.toml", "sandbox.example.toml"):
        text = (REPO / "config" / name).read_text("utf-8")
        assert '\nlanguage = "vi"' in text, name


@pytest.mark.parametrize(("section", "key"), [("terminal", "app_user"), ("shop", "name"),
                                              ("shop", "address"), ("shop", "tax_id")])
def test_texts_a_person_reads_hold_no_control_character(tmp_path: Path, section: str,
                                                        key: str) -> None:
    value = '"Quầy\\u001bp\\u0000\\u0019"'
    text = (CONTRACT.replace('app_user = "counter-1"', f"app_user = {value}")
            if key == "app_user" else CONTRACT + f"\n[{section}]\n{key} = {value}\n")
    err = error_of(write(tmp_path, text))
    assert err.key == f"[{section}] {key}"
    assert err.message.startswith("holds a control character (U+001B")


def test_no_dump_or_print_of_the_settings_shows_a_secret(tmp_path: Path) -> None:
    """An error reporter or a debug line that writes the whole settings writes no secret."""
    password = "s3cret-pw"
    text = CONTRACT + f'\n[ledger]\ndsn = "postgresql://pos:{password}@ledger.test/fleet"\n'
    settings = load_settings(write(tmp_path, text), env={"POS_KEY2": "k2-from-env"})
    shown = "\n".join([str(settings), repr(settings), settings.model_dump_json(),
                       str(settings.model_dump()), f"{settings.service.key1}"])
    for secret in ("k1", "k2-from-env", password):
        assert secret not in shown.replace("key1", "").replace("key2", "")
    assert settings.service.key2.get_secret_value() == "k2-from-env"
    assert password in settings.ledger.dsn.get_secret_value()


def test_the_ledger_dsn_of_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    text = CONTRACT + '\n[ledger]\ndsn = "postgresql://file@ledger.test/fleet"\n'
    path = write(tmp_path, text)
    env_dsn = "postgresql://env@ledger.test/fleet"
    assert load_settings(path, env={"POS_LEDGER_DSN": env_dsn}).ledger.dsn.get_secret_value() \
        == env_dsn
    assert load_settings(path, env={"POS_LEDGER_DSN": ""}).ledger.dsn.get_secret_value() == (
        "postgresql://file@ledger.test/fleet")


def test_a_contract_section_that_is_not_a_table_says_so(tmp_path: Path) -> None:
    text = 'terminal = "counter-1"\n' + CONTRACT.split("[terminal]")[0]
    err = error_of(write(tmp_path, text), env={"POS_KEY1": "k1"})
    assert err.key == "[terminal]"
    assert err.message.startswith("must be a table")
