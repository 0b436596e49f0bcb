"""Starting and stopping the emulator in-process; configuration it refuses."""

from __future__ import annotations

import base64
import errno
import socket
from pathlib import Path

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from pos_terminal.config import load_settings
from pos_terminal.emulator import start_emulator

REPO = Path(__file__).resolve().parents[2]


def test_free_port_and_clean_stop() -> None:
    settings = load_settings(REPO / "config" / "default.toml", env={})
    with start_emulator(settings, port=0) as first, start_emulator(settings, port=0) as second:
        assert first.port != second.port
        assert first.base_url == f"http://127.0.0.1:{first.port}" == first.gateway_url
        assert requests.get(first.base_url + "/_emulator/wallets", timeout=5).ok
    with pytest.raises(requests.ConnectionError):
        requests.get(first.base_url + "/_emulator/wallets", timeout=5)
    first.stop()  # stopping twice is harmless


def test_busy_port_is_the_bare_system_reason() -> None:
    settings = load_settings(REPO / "config" / "default.toml", env={})
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with pytest.raises(OSError) as err:
            start_emulator(settings, port=busy.getsockname()[1])
    assert (err.value.errno, err.value.strerror) == (errno.EADDRINUSE, "Address already in use")
    assert "attempting to bind" not in str(err.value)


def test_a_public_key_that_is_not_the_pair_is_refused_at_start() -> None:
    other = rsa.generate_private_key(public_exponent=65537, key_size=1024).public_key()
    der = other.public_bytes(serialization.Encoding.DER,
                             serialization.PublicFormat.SubjectPublicKeyInfo)
    settings = load_settings(REPO / "config" / "default.toml", env={}).replace_service(
        rsa_public_key=base64.b64encode(der).decode())
    with pytest.raises(ValueError, match="is not the pair of \\[service\\] rsa_public_key"):
        start_emulator(settings)


def test_missing_private_key_file_is_named(tmp_path: Path) -> None:
    settings = load_settings(REPO / "config" / "default.toml", env={}).replace_section(
        "emulator", private_key=tmp_path / "nope.pem")
    with pytest.raises(ValueError, match=r"cannot read the emulator's private key .*nope\.pem"):
        start_emulator(settings)
