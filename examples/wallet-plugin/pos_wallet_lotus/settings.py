"""`[providers.lotus]`: Lotus Pay's settings, validated when the configuration is read."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, SecretStr

#: Lotus Pay's payment codes: "LT" and 16 digits (within [scanner] code_min_length..max).
LOTUS_CODE_PATTERN = r"^LT[0-9]{16}$"


class LotusSettings(BaseModel):
    """Where Lotus Pay answers, the shop's API key there (a secret: never repeated), how long
    to wait, which scanned codes are Lotus Pay's."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

    base_url: str = Field(pattern=r"^https?://[^\s/]+(/\S*)?$")
    api_key: SecretStr = Field(min_length=8)
    timeout_s: float = Field(default=20.0, gt=0, le=120)
    connect_timeout_s: float = Field(default=3.0, gt=0, le=60)
    code_pattern: str = LOTUS_CODE_PATTERN
    enabled: bool = True
