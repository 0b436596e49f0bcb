"""`[providers.momo]`: MoMo's settings, validated like every section of the configuration."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator

from pos_terminal.base.i18n import _
from pos_terminal.config import (
    _check_pattern,
    _check_url,
    _environment_of,
    _inconsistent,
    _plain_text,
    _readable_rsa_key,
    _Section,
)

#: MoMo's payment codes: "MM" and 18 digits (matched whole, case-insensitively).
MOMO_CODE_PATTERN = r"^MM[0-9]{18}$"


#: MoMo asks its POS clients to wait at least this long for an answer (momo.md).
MOMO_MIN_TIMEOUT_S = 30.0


class MomoSettings(_Section):
    """`[providers.momo]`: MoMo's POS payment (Quick Pay v2, the cashier scans the customer's
    code). Secrets never shown; `public_key` is MoMo's RSA key (base64 DER or PEM) that seals
    the payment code; `auto_capture` false: a payment is only authorised and the terminal
    captures it."""

    base_url: str
    partner_code: str = Field(min_length=1, max_length=50)
    access_key: SecretStr = Field(min_length=1)
    secret_key: SecretStr = Field(min_length=1)
    public_key: str = Field(min_length=1, repr=False)
    store_id: str = Field(default="", max_length=50)
    store_name: str = Field(default="", max_length=100)
    auto_capture: bool = True
    timeout_s: float = Field(default=MOMO_MIN_TIMEOUT_S, ge=MOMO_MIN_TIMEOUT_S, le=300)
    connect_timeout_s: float = Field(default=5.0, ge=0.1, le=60)
    code_pattern: str = MOMO_CODE_PATTERN
    environment: Literal["emulator", "sandbox", "production"] = "production"
    enabled: bool = True

    _url = field_validator("base_url")(_check_url)
    _pattern = field_validator("code_pattern")(_check_pattern)
    _key = field_validator("public_key")(_readable_rsa_key)
    _plain = field_validator("partner_code", "store_id", "store_name")(_plain_text)

    @model_validator(mode="before")
    @classmethod
    def _environment_from_url(cls, data: object) -> object:
        return _environment_of(data)

    @model_validator(mode="after")
    def _tls_outside_the_emulator(self) -> MomoSettings:
        if self.environment != "emulator" and urlsplit(self.base_url).scheme == "http":
            raise _inconsistent(self, "base_url", _(
                "plain http:// is allowed only for the emulator (environment = \"emulator\"); "
                "with environment = \"{environment}\" use MoMo's https:// address. Nothing was "
                "sent").format(environment=self.environment))
        return self
