"""What the emulator needs from the configuration, for every wallet's part: the house service's
keys, the emulator's private key (checked against `[service] rsa_public_key` at start), its
timings, its faults from the start, its callbacks' settings."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from pos_terminal.emulator.faults import FaultRule, FaultSpecError, parse_rule
from pos_terminal.emulator.pkcs1 import load_private_key
from pos_terminal.emulator.wallets import fault_wallet_ids

#: How long the callbacks wait before each retry (the house service's: 5 s, 15 s, 60 s).
DEFAULT_RETRY_DELAYS_S = (5.0, 15.0, 60.0)


@dataclass(frozen=True)
class EmulatorOptions:
    """What the emulator needs from the configuration."""

    app_id: int
    key1: str
    key2: str
    private_key_pem: str
    code_lifetime_s: float = 60.0
    processing_s: float = 3.0
    app_time_tolerance_s: float = 900.0
    redirect_url: str = ""
    faults: tuple[FaultRule, ...] = ()
    # the callback URL registered for the application (used when an order names none)
    callback_url: str = ""
    callback_retry_delays_s: tuple[float, ...] = DEFAULT_RETRY_DELAYS_S
    callback_timeout_s: float = 5.0
    # the hosts a callback may go to ([emulator] callback_hosts; guard.callback_allowed)
    callback_hosts: tuple[str, ...] = ("127.0.0.1", "::1", "localhost")

    @classmethod
    def from_settings(cls, settings: Any) -> EmulatorOptions:
        """Read a :class:`pos_terminal.config.Settings` (service credentials + [emulator])."""
        service, emulator = settings.service, settings.emulator
        key_path = Path(emulator.private_key).expanduser()
        if not key_path.is_absolute() and not key_path.exists():
            key_path = Path(settings.source).parent / key_path
        try:
            pem = key_path.read_text(encoding="ascii")
        except OSError as exc:
            raise ValueError(f"cannot read the emulator's private key {key_path}: "
                             f"{exc.strerror}") from None
        faults = []
        for index, raw in enumerate(getattr(emulator, "faults", ()) or ()):
            try:
                faults.append(parse_rule(dict(raw), fault_wallet_ids()))
            except FaultSpecError as exc:
                raise ValueError(f"[emulator] faults[{index}]: {exc}") from None
        _check_key_pair(pem, service.rsa_public_key, key_path)
        return cls(app_id=service.app_id, key1=service.key1.get_secret_value(),
                   key2=service.key2.get_secret_value(),
                   private_key_pem=pem, code_lifetime_s=emulator.code_lifetime_s,
                   processing_s=emulator.processing_s,
                   app_time_tolerance_s=emulator.app_time_tolerance_s,
                   redirect_url=getattr(service, "redirect_url", "") or "",
                   faults=tuple(faults),
                   callback_url=getattr(emulator, "callback_url", "") or "",
                   callback_retry_delays_s=tuple(getattr(
                       emulator, "callback_retry_delays_s", DEFAULT_RETRY_DELAYS_S)),
                   callback_timeout_s=getattr(emulator, "callback_timeout_s", 5.0),
                   callback_hosts=tuple(getattr(emulator, "callback_hosts", cls.callback_hosts)))


def _check_key_pair(private_pem: str, public_text: str, key_path: Path) -> None:
    """Refuse to start when the terminal's public key cannot open what the emulator decrypts."""
    try:
        private = load_private_key(private_pem)
    except ValueError as exc:
        raise ValueError(f"cannot read the emulator's private key {key_path}: {exc}") from None
    text = public_text.strip()
    try:
        if "-----BEGIN" in text:
            public = serialization.load_pem_public_key(text.encode("ascii"))
        else:
            public = serialization.load_der_public_key(base64.b64decode(text, validate=True))
    except ValueError:
        raise ValueError("[service] rsa_public_key is not a readable RSA public key") from None
    if not isinstance(public, rsa.RSAPublicKey) or (
            public.public_numbers() != private.public_key().public_numbers()):
        raise ValueError(f"the emulator's private key {key_path} is not the pair of "
                         "[service] rsa_public_key: every payment code would be refused. "
                         "Use config/default.toml's key pair, or set [emulator] private_key.")
