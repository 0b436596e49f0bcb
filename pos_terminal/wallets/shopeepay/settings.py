"""`[providers.shopeepay]`: ShopeePay's settings, validated like every section of the
configuration."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator

from pos_terminal.config import (
    _check_pattern,
    _check_url,
    _environment_of,
    _https_unless_emulator,
    _plain_text,
    _Section,
)

#: ShopeePay publishes no format for its payment codes: this default is the emulator's ("SPC"
#: and 17 digits); a counter sets the pattern its codes follow (`code_pattern`).
SHOPEEPAY_CODE_PATTERN = r"^SPC[0-9]{17}$"


class ShopeePaySettings(_Section):
    """`[providers.shopeepay]`: ShopeePay's customer-presented payments. `client_id` and
    `secret_key` sign every request (the secret never shown); `merchant_ext_id` and
    `store_ext_id` name the merchant and the store."""

    base_url: str
    client_id: str = Field(min_length=1, max_length=64)
    secret_key: SecretStr = Field(min_length=1)
    merchant_ext_id: str = Field(min_length=1, max_length=64)
    store_ext_id: str = Field(min_length=1, max_length=64)
    timeout_s: float = Field(default=20.0, ge=1, le=300)
    connect_timeout_s: float = Field(default=5.0, ge=0.1, le=60)
    code_pattern: str = SHOPEEPAY_CODE_PATTERN
    environment: Literal["emulator", "sandbox", "production"] = "production"
    enabled: bool = True

    _url = field_validator("base_url")(_check_url)
    _pattern = field_validator("code_pattern")(_check_pattern)
    _plain = field_validator("client_id", "merchant_ext_id", "store_ext_id")(_plain_text)

    @model_validator(mode="before")
    @classmethod
    def _environment_from_url(cls, data: object) -> object:
        return _environment_of(data)

    @model_validator(mode="after")
    def _tls_outside_the_emulator(self) -> ShopeePaySettings:
        return _https_unless_emulator(self)
