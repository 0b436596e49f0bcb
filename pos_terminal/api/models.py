"""Request bodies: strict JSON types (no "1000" for 1000, no 1000.0), unknown fields refused.

Amount limits, the payment code's form and the description's characters are then checked by the
counter with the same rules (and sentences) as the UI and the CLI."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

REF = r"^[A-Za-z0-9_.:/-]{1,64}$"
#: A wallet provider's name, as journaled ("zalopay", "momo").
PROVIDER = r"^[a-z][a-z0-9_]{0,31}$"
#: far above any maximum: bigger numbers are refused before the counter's own limits
AMOUNT_DIGITS = 10**16


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, hide_input_in_errors=True)


class ItemIn(_Body):
    name: str = Field(min_length=1, max_length=100)
    price: int = Field(ge=0, le=10**12)
    quantity: int = Field(default=1, ge=1, le=10_000)


class PaymentIn(_Body):
    amount: int = Field(ge=-AMOUNT_DIGITS, le=AMOUNT_DIGITS,
                        description="VND, a JSON integer within the terminal's limits")
    sale_ref: str = Field(pattern=REF, description="The sale system's own reference: the "
                          "same sale_ref is charged at most once")
    payment_code: str | None = Field(default=None, max_length=256, repr=False,
                                     description="The code your own scanner read; without it "
                                     "the counter's scanner waits for one")
    description: str = Field(default="", max_length=256)
    items: list[ItemIn] = Field(default_factory=list, max_length=100)
    method: Literal["code", "qr"] = Field(
        default="code", description="\"qr\": the shop shows a QR (a shop-QR wallet's: provider, "
        "else the first this counter takes); the answer comes once it is shown, with its "
        "qr_content, then GET /v1/payments?sale_ref= and the events follow it")
    provider: str | None = Field(default=None, pattern=PROVIDER,
                                 description="The customer's wallet (\"zalopay\", \"momo\"); "
                                 "without it the code's pattern decides")


class AbortIn(_Body):
    sale_ref: str = Field(pattern=REF)


class RefundIn(_Body):
    app_trans_id: str = Field(min_length=1, max_length=64)
    amount: int = Field(ge=-AMOUNT_DIGITS, le=AMOUNT_DIGITS,
                        description="VND to refund, a JSON integer")
    refund_ref: str = Field(pattern=REF, description="The sale system's reference of this "
                            "refund: the same refund_ref is refunded at most once")
    description: str = Field(default="", max_length=256)
    supervisor: str | None = Field(default=None, max_length=32)
    pin: str | None = Field(default=None, max_length=16, repr=False)


class ErrorDetail(BaseModel):
    code: str = Field(description="one of the table in docs/terminal-api.md")
    message: str = Field(description="one sentence, in the terminal's language")


class ErrorOut(BaseModel):
    """Every refusal: nothing was charged by the refused request."""

    error: ErrorDetail
