"""The MoMo merchant account a counter charges through: explicit, immutable, its secrets kept
out of every repr (the configuration builds it from ``[providers.momo]``)."""

from __future__ import annotations

from dataclasses import dataclass, field

#: MoMo asks its clients to wait at least this long for an answer (developers.momo.vn, POS).
MIN_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class MomoAccount:
    """``public_key``: MoMo's RSA public key (base64 DER or PEM) that seals the payment code;
    ``auto_capture`` False: a payment is only authorised (9000) and the terminal captures it;
    ``timeout_s``: the whole request's time limit, at least MoMo's 30 s."""

    base_url: str
    partner_code: str
    access_key: str = field(repr=False)
    secret_key: str = field(repr=False)
    public_key: str = field(repr=False)
    store_id: str = ""
    store_name: str = ""
    auto_capture: bool = True
    timeout_s: float = MIN_TIMEOUT_S
    connect_timeout_s: float = 5.0
    lang: str = "vi"

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("https://", "http://")):
            raise ValueError("[providers.momo] base_url must be an http(s) URL")
        for name in ("partner_code", "access_key", "secret_key", "public_key"):
            if not getattr(self, name).strip():
                raise ValueError(f"[providers.momo] {name} is empty; it is required")
        if not self.timeout_s >= MIN_TIMEOUT_S:
            raise ValueError(f"[providers.momo] timeout_s must be at least {MIN_TIMEOUT_S:g} s "
                             f"(MoMo asks for it); got {self.timeout_s:g}")
        if self.lang not in ("vi", "en"):
            raise ValueError("[providers.momo] lang must be vi or en")
