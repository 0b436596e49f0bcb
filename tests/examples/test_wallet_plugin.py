"""The example wallet (examples/wallet-plugin, Lotus Pay) plugs in by installation alone: installed
into a fresh virtual environment beside pos-terminal, it is known to the registry there (and not
here), its stand-in service joins the emulator, and the CLI pays, checks, refunds and reports
through it, each command a process of its own, with no file of pos_terminal changed for it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "wallet-plugin"
API_KEY = "lotus-demo-key-0001"  # the stand-in service's demo key (pos_wallet_lotus/emulator.py)

pytestmark = pytest.mark.e2e


def _run(python: Path, *args: str, stdin: str | None = None,
         check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(python), *args], input=stdin, capture_output=True, text=True,
                          timeout=300, check=False)
    if check and done.returncode != 0:
        raise AssertionError(f"{args} exited {done.returncode}: {done.stderr}")
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment that sees this one's packages (pos-terminal and its
    dependencies, nothing downloaded) and has the example wallet installed."""
    where = tmp_path_factory.mktemp("venv")
    _run(Path(sys.executable), "-m", "venv", "--without-pip", str(where))
    python = where / "bin" / "python"
    site = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    Path(site.stdout.strip(), "_these_packages.pth").write_text(
        f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    # from a copy: an install writes its metadata beside the sources, never into the checkout
    copy = shutil.copytree(PLUGIN, where / "wallet-plugin",
                           ignore=shutil.ignore_patterns("*.egg-info", "build", "__pycache__"))
    _run(python, "-m", "pip", "install", "--quiet", "--no-deps", "-e", str(copy))
    return python


@pytest.fixture(scope="module")
def emulator(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`pos-terminal emulator` run by the fresh environment: the installed wallet's part too."""
    folder = tmp_path_factory.mktemp("emulator")
    config = folder / "emulator.toml"
    config.write_text(_default_config(folder / "emulator.sqlite3"))
    process = subprocess.Popen([str(venv), "-m", "pos_terminal", "emulator", "--port", "0",
                                "--config", str(config)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"listening on (http://\S+)", line)
        assert found, line
        yield found.group(1)
    finally:
        process.terminate()
        process.wait(30)


def _default_config(journal: Path, base_url: str = "http://127.0.0.1:8765") -> str:
    text = (ROOT / "config" / "default.toml").read_text(encoding="utf-8")
    text = text.replace("http://127.0.0.1:8765", base_url)
    text = text.replace('"~/.local/share/pos-terminal/journal.sqlite3"', json.dumps(str(journal)))
    return text.replace('"emulator-test-private-key.pem"',
                        json.dumps(str(ROOT / "config" / "emulator-test-private-key.pem")))


def _control(base_url: str, path: str, body: object) -> Any:
    request = urllib.request.Request(f"{base_url}/_emulator/{path}", method="POST",
                                     data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _code(base_url: str, customer: str) -> str:
    code: str = _control(base_url, f"lotus/customers/{customer}/code", {})["code"]
    return code


def test_installed_alone_it_pays_checks_refunds_and_reports(
        venv: Path, emulator: str, tmp_path: Path) -> None:
    known = "from pos_terminal import wallet_registry as r; print(' '.join(r.names()))"
    assert _run(venv, "-c", known).stdout.split()[-1] == "lotus"  # after the built-in ones
    assert "lotus" not in _run(Path(sys.executable), "-c", known).stdout.split()

    config = _config(tmp_path, emulator)

    def cli(*args: str, stdin: str | None = None, check: bool = True) -> dict[str, Any]:
        done = _run(venv, "-m", "pos_terminal", *args, "--json", "--config", str(config),
                    stdin=stdin, check=check)
        assert API_KEY not in done.stdout + done.stderr
        data: dict[str, Any] = json.loads(done.stdout)
        return data

    paid_code = _code(emulator, "lotus-paid")
    paid = cli("pay", "--amount", "30000", "--code-stdin", stdin=paid_code + "\n")
    assert (paid["provider"], paid["state"]) == ("lotus", "succeeded")
    assert paid_code not in json.dumps(paid)
    slow = cli("pay", "--amount", "20000", "--code-stdin", stdin=_code(emulator, "lotus-slow"))
    assert (slow["provider"], slow["state"]) == ("lotus", "succeeded")  # after its status queries
    poor = cli("pay", "--amount", "10000", "--code-stdin", stdin=_code(emulator, "lotus-poor"),
               check=False)
    assert (poor["provider"], poor["state"]) == ("lotus", "failed")

    # the shared fault routing serves its declared endpoints: the charge is made, its answer
    # lost; the status query finds it paid
    _control(emulator, "faults", {"endpoint": "lotus_pay", "mode": "drop_after_commit",
                                  "wallet": "lotus-paid"})
    lost = cli("pay", "--amount", "15000", "--code-stdin", stdin=_code(emulator, "lotus-paid"))
    assert (lost["provider"], lost["state"]) == ("lotus", "succeeded")
    with urllib.request.urlopen(f"{emulator}/_emulator/faults", timeout=30) as answer:
        assert json.loads(answer.read())["faults"] == []  # the rule was taken by that payment

    status = cli("status", paid["app_trans_id"])
    assert (status["provider"], status["state"]) == ("lotus", "succeeded")
    refund = cli("refund", paid["app_trans_id"], "--amount", "5000")
    assert (refund["provider"], refund["state"]) == ("lotus", "refunded")

    report = cli("report", "x")
    assert report["by_provider"] == {"lotus": {
        "count": 3, "amount": 65_000, "refunds_count": 1, "refunds_amount": 5_000,
        "net_amount": 60_000}}


def _config(folder: Path, emulator: str) -> Path:
    config = folder / "pos.toml"
    config.write_text(_default_config(folder / "journal.sqlite3", emulator) + (
        "\n[checkout]\npoll_intervals_s = [0.05]\n\n[providers.lotus]\n"
        f'base_url = "{emulator}"\napi_key = "{API_KEY}"\n'))
    config.chmod(0o600)
    return config


FROZEN_EN = ("The customer's Lotus Pay account is frozen: 12.000 ₫ was not charged. Ask the "
             "customer to call Lotus Pay or pay another way.")
FROZEN_VI = ("Tài khoản Ví Sen của khách đang bị khoá: chưa trừ 12.000 ₫. Mời khách gọi Ví Sen "
             "hoặc thanh toán cách khác.")


def test_its_own_sentences_are_shown_in_the_cashiers_language(
        venv: Path, emulator: str, tmp_path: Path) -> None:
    """A reason of its own (its account-frozen decline) reads in Vietnamese or English, as the
    language setting asks, in the CLI's JSON and text; so does its demo customer's behaviour.
    No catalog of pos_terminal holds these sentences: the wallet's declaration brings them."""
    config = _config(tmp_path, emulator)
    shown: dict[tuple[str, str], str] = {}
    for language in ("vi", "en"):
        for form in ("--json", "text"):
            done = _run(venv, "-m", "pos_terminal", "pay", "--amount", "12000", "--code-stdin",
                        "--language", language, "--config", str(config),
                        *([form] if form == "--json" else []),
                        stdin=_code(emulator, "lotus-frozen"), check=False)
            assert done.returncode == 1, done.stderr
            shown[language, form] = done.stdout
    for form in ("--json", "text"):
        assert FROZEN_VI in shown["vi", form] and FROZEN_EN not in shown["vi", form]
        assert FROZEN_EN in shown["en", form] and FROZEN_VI not in shown["en", form]
    answer = json.loads(shown["en", "--json"])
    assert (answer["provider"], answer["state"]) == ("lotus", "failed")
    assert answer["message"] == FROZEN_EN

    # the same reason, read back from the journal in the other language
    vi = _run(venv, "-m", "pos_terminal", "status", answer["app_trans_id"], "--json",
              "--language", "vi", "--config", str(config), check=False)
    assert json.loads(vi.stdout)["message"].startswith(FROZEN_VI), vi.stdout

    describe = ("import sys; from pos_terminal.base.i18n import set_language; "
                "from pos_terminal.tui.demo import DemoController; "
                "set_language(sys.argv[1]); d = DemoController('http://127.0.0.1:1', None); "
                "d.select_index([c.id for c in d.customers].index('lotus-frozen')); "
                "print(d.describe())")
    assert "tài khoản bị Ví Sen khoá" in _run(venv, "-c", describe, "vi").stdout
    assert "account frozen by Lotus Pay" in _run(venv, "-c", describe, "en").stdout


def test_the_registry_loads_before_the_configuration_is_imported() -> None:
    """Asking the registry first (as a wallet's own code may) loads the built-in wallets, whose
    declarations import the configuration, which reads the registry: it must not wait on
    itself."""
    done = subprocess.run(
        [sys.executable, "-c", "from pos_terminal import wallet_registry as r; print(r.names())"],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "zalopay" in done.stdout, done.stderr
