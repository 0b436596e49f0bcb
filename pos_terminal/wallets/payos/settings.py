"""`[providers.payos]`: payOS's settings, validated like every section of the configuration."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator

from pos_terminal.config import (
    _check_url,
    _environment_of,
    _https_unless_emulator,
    _plain_text,
    _Section,
)

#: payOS takes no code from the customer (the shop shows the QR): a pattern no code matches.
PAYOS_CODE_PATTERN = r"(?!)"


class PayOSSettings(_Section):
    """`[providers.payos]`: payOS's VietQR payment requests. `client_id` and `api_key` go as
    headers with every call, `checksum_key` signs (all three never shown); `expire_s` is how
    long a shown QR stays payable."""

    base_url: str = "https://api-merchant.payos.vn"
    client_id: SecretStr = Field(min_length=1)
    api_key: SecretStr = Field(min_length=1)
    checksum_key: SecretStr = Field(min_length=1)
    timeout_s: float = Field(default=20.0, ge=1, le=300)
    connect_timeout_s: float = Field(default=5.0, ge=0.1, le=60)
    expire_s: int = Field(default=900, ge=60, le=86_400)
    environment: Literal["emulator", "sandbox", "production"] = "production"
    enabled: bool = True

    _url = field_validator("base_url")(_check_url)

    @field_validator("client_id", "api_key", "checksum_key")
    @classmethod
    def _plain_secret(cls, value: SecretStr) -> SecretStr:
        _plain_text(value.get_secret_value())
        return value

    @model_validator(mode="before")
    @classmethod
    def _environment_from_url(cls, data: object) -> object:
        return _environment_of(data)

    @model_validator(mode="after")
    def _tls_outside_the_emulator(self) -> PayOSSettings:
        return _https_unless_emulator(self)
