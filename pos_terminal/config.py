"""Load and validate the TOML configuration into one typed, immutable Settings object.

The `[service]` and `[terminal]` keys are a contract (other programs write these files:
docs/external-contracts.md); every other section is optional with defaults. Unknown keys,
missing keys and bad values raise ConfigError naming the file and the key.

Where the values come from is pydantic-settings' business: the file (a TOML source), the
secrets of the environment above it (POS_KEY1, POS_KEY2, POS_RSA_PUBLIC_KEY, POS_LEDGER_DSN)
and the locale's language below it. Secrets are `SecretStr`: no repr, str() or dump shows them;
the code that signs or connects asks for `.get_secret_value()`.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import re
import tomllib
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    SecretStr,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from pos_terminal import wallet_registry
from pos_terminal.base.errors import ExitCode, PosError
from pos_terminal.base.files import loose_permissions
from pos_terminal.base.i18n import _, locale_language
from pos_terminal.base.keys import read_rsa_public_key
from pos_terminal.text_safety import clean, control_character

#: The environment variables that override values of the file: (section, key) of each.
ENV_OVERRIDES = {"POS_KEY1": ("service", "key1"), "POS_KEY2": ("service", "key2"),
                 "POS_RSA_PUBLIC_KEY": ("service", "rsa_public_key"),
                 "POS_LEDGER_DSN": ("ledger", "dsn")}
_REPO_CONFIG = Path(__file__).resolve().parent.parent / "config"


class ConfigError(PosError):
    """A configuration problem, worded for the person who edits the file (exit 2)."""

    exit_code = ExitCode.NOTHING_SENT

    def __init__(self, file: Path, key: str | None, message: str) -> None:
        self.file = file
        self.key = key
        where = f"{file}: {key}: " if key else f"{file}: "
        super().__init__(message, text=where + message)


#: The largest amount a configuration may allow for one payment: the largest integer every JSON
#: reader (JavaScript's included) keeps exact. The service documents amounts as "long" only.
AMOUNT_CEILING = 2**53 - 1


class _Section(BaseModel):
    # allow_inf_nan=False: `nan` and `inf` (valid TOML floats) are refused in every section.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


_S = TypeVar("_S", bound=BaseModel)


def _inconsistent(model: BaseModel, key: str, message: str) -> ValidationError:
    """A ValidationError located at ``key`` (so the error names `[section] key`)."""
    from pydantic_core import InitErrorDetails, PydanticCustomError

    return ValidationError.from_exception_data(type(model).__name__, [InitErrorDetails(
        type=PydanticCustomError("inconsistent", message),
        loc=(key,),
        input=getattr(model, key),
    )])


def _check_url(value: str) -> str:
    shown = clean(value)[:200]
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {shown!r}")
    try:
        if parts.port == 0:  # urlsplit checks the range only when the port is read
            raise ValueError("port 0")
    except ValueError:
        raise ValueError(_("{url} names an impossible port: a port is a number from 1 to "
                           "65535 (or leave it out for the usual one)").format(
                               url=repr(shown))) from None
    return value.rstrip("/")


def _file_path(blank: str | None) -> BeforeValidator:
    """A path written as text becomes a Path (strict mode takes no str for a Path); a blank one
    is refused with `blank`, or means none when `blank` is None."""

    def convert(value: object) -> object:
        if not isinstance(value, str):
            return value
        if not value.strip():
            if blank is None:
                return None
            raise ValueError(blank)
        return Path(value)

    return BeforeValidator(convert)


#: A file named in the configuration; `FilePath | None` where leaving it empty means none.
FilePath = Annotated[Path, _file_path("must name a file")]
OptionalFile = Annotated[Path | None, _file_path(None)]


def _plain_text(value: str) -> str:
    """Text a person reads (a receipt, a screen, the service's records): no control character."""
    bad = control_character(value)
    if bad is not None:
        raise ValueError(_("holds a control character ({bad}: an escape, a newline, a tab "
                           "or similar); write plain text on one line").format(bad=bad))
    return value


#: ZaloPay's default code pattern (matched whole, case-insensitively): its codes are digits.
ZALOPAY_CODE_PATTERN = r"^[0-9]+$"
#: A pattern shown as an example when one is written wrong.
_PATTERN_EXAMPLE = r"^MM[0-9]{18}$"


def _check_pattern(value: str) -> str:
    """A wallet's code pattern: a regular expression that compiles and matches something."""
    if not value.strip():
        raise ValueError(_("is empty: write the regular expression a code of this wallet "
                           "matches, e.g. \"{example}\"").format(example=_PATTERN_EXAMPLE))
    try:
        re.compile(value, re.IGNORECASE)
    except re.error as exc:
        raise ValueError(_("is not a regular expression ({error}); e.g. \"{example}\"").format(
            error=exc, example=_PATTERN_EXAMPLE)) from None
    return value


def _https_unless_emulator(section: _S, keys: tuple[str, ...] = ("base_url",)) -> _S:
    """`section` if its `keys` are https:// addresses, or it speaks to the emulator."""
    environment = getattr(section, "environment", "production")
    if environment != "emulator":
        for key in keys:
            if urlsplit(getattr(section, key)).scheme == "http":
                raise _inconsistent(section, key, _(
                    "plain http:// is allowed only for the emulator (environment = "
                    "\"emulator\"); with environment = \"{environment}\" use the "
                    "service's https:// address. Nothing was sent").format(
                        environment=environment))
    return section


def _environment_of(data: object) -> object:
    """`environment` when not written: the emulator on loopback, the sandbox by its host
    name, else production."""
    if isinstance(data, dict) and "environment" not in data \
            and isinstance(data.get("base_url"), str):
        return {**data, "environment": _derive_environment(data["base_url"])}
    return data


def _readable_rsa_key(value: str) -> str:
    try:
        read_rsa_public_key(value)
    except Exception as exc:
        # One sentence (the key's name is already in front of it): what is wrong, what to do.
        reason = str(exc)
        if "cannot be read" in reason:
            reason = ("not a readable RSA public key: paste the service's public key from "
                      "the merchant portal, as base64 of the DER key or a PEM block")
        raise ValueError(reason) from None
    return value


class ServiceSettings(_Section):
    generation: Literal["v2", "v001"]
    base_url: str
    gateway_url: str
    app_id: int = Field(gt=0)
    key1: SecretStr = Field(min_length=1)
    key2: SecretStr = Field(min_length=1)
    rsa_public_key: str = Field(min_length=1, repr=False)
    timeout_s: float = Field(ge=0.5, le=120)
    connect_timeout_s: float = Field(default=3.0, ge=0.1, le=60)
    payment_code_base64: Literal["standard", "urlsafe"] = "standard"
    redirect_url: str = ""
    environment: Literal["emulator", "sandbox", "production"] = "production"
    #: Which scanned codes are ZaloPay's when the counter takes more than one wallet (matched
    #: whole, upper or lower case alike). ZaloPay publishes no format: "a run of digits".
    code_pattern: str = ZALOPAY_CODE_PATTERN
    #: Whether this counter takes ZaloPay ([service] stays required: other programs write it).
    enabled: bool = True

    _urls = field_validator("base_url", "gateway_url")(_check_url)
    _pattern = field_validator("code_pattern")(_check_pattern)

    @model_validator(mode="before")
    @classmethod
    def _environment_from_url(cls, data: object) -> object:
        return _environment_of(data)

    @model_validator(mode="after")
    def _tls_outside_the_emulator(self) -> ServiceSettings:
        # The service's answers are not signed: over plain HTTP whoever sits on the path could
        # answer "paid". Only the local emulator may be spoken to without TLS.
        return _https_unless_emulator(self, ("base_url", "gateway_url"))

    @field_validator("redirect_url")
    @classmethod
    def _optional_url(cls, value: str) -> str:
        return _check_url(value) if value else value

    _readable_key = field_validator("rsa_public_key")(_readable_rsa_key)


class ProvidersSettings(_Section):
    """The wallets beside ZaloPay (whose settings stay `[service]`): one table each,
    `[providers.<name>]`, read by the model its wallet declares (pos_terminal/wallet_registry.py).
    `providers.<name>` is the table, None when the file has none; a table no known wallet
    declares is an unknown key."""

    model_config = ConfigDict(extra="allow", frozen=True, strict=True, allow_inf_nan=False)

    @model_validator(mode="wrap")
    @classmethod
    def _tables(cls, data: Any, handler: ModelWrapValidatorHandler[ProvidersSettings]
                ) -> ProvidersSettings:
        if isinstance(data, dict):
            tables = create_model(  # type: ignore[call-overload]
                "ProvidersTables", __config__=ConfigDict(extra="forbid", frozen=True),
                **{key: (model | None, None) for key, model in _provider_models().items()})
            checked = tables.model_validate(data)
            data = {key: value for key, value in checked if value is not None}
        return handler(data)

    def __getattr__(self, name: str) -> Any:
        extra = self.__pydantic_extra__
        if extra is not None and name in extra:
            return extra[name]
        if not name.startswith("_") and name in _provider_models():
            return None
        return super().__getattr__(name)  # type: ignore[misc]


def _provider_models() -> dict[str, type[BaseModel]]:
    """Each registered wallet's `[providers.<name>]` model, by table name."""
    return {decl.providers_key: decl.settings_model
            for decl in wallet_registry.wallets().values() if decl.providers_key is not None}


class TerminalSettings(_Section):
    journal: FilePath
    app_user: str = Field(min_length=1, max_length=50)
    terminal_id: str = Field(default="", pattern=r"^[A-Za-z0-9]{0,8}$")
    # Sent as `userip` on quick pay; empty: the terminal's own address, found at the first sale.
    user_ip: str = ""
    # What the cashier reads (screens, CLI, receipts); not in the file: from LANG / LC_ALL.
    language: Literal["vi", "en"] = "en"
    #: How long the journal is waited for while another program holds it (a backup, a second
    #: pos-terminal writing) before a command says it is locked.
    journal_wait_s: float = Field(default=5.0, ge=0.1, le=60.0)

    _plain = field_validator("app_user")(_plain_text)

    @field_validator("user_ip")
    @classmethod
    def _user_ip(cls, value: str) -> str:
        if not value:
            return value
        try:
            return str(ipaddress.ip_address(value.strip()))
        except ValueError:
            raise ValueError(f"not an IP address: {value!r} (leave it out to send the "
                             "terminal's own address)") from None



DAY_S = 86_400.0
#: The shortest pause between two status queries: below it the poller hammers the service.
MIN_POLL_INTERVAL_S = 0.05


class CheckoutSettings(_Section):
    poll_deadline_s: float = Field(default=120.0, ge=0.1, le=DAY_S)
    poll_intervals_s: tuple[float, ...] = (0.5, 0.5, 1.0, 1.0, 2.0, 3.0, 5.0)
    not_found_grace_s: float = Field(default=60.0, ge=0, le=DAY_S)
    status_query_window_h: float = Field(default=48.0, ge=1, le=24 * 30)
    min_amount: int = Field(default=1, gt=0, le=AMOUNT_CEILING)
    max_amount: int = Field(default=100_000_000, gt=0, le=AMOUNT_CEILING)
    code_reuse_window_s: float = Field(default=120.0, ge=0, le=DAY_S)
    #: A payment charged after the terminal said failed or after the cashier gave up waiting:
    #: "refund" returns it automatically, "review" flags it for a person.
    late_success: Literal["refund", "review"] = "refund"

    @model_validator(mode="after")
    def _amount_bounds(self) -> CheckoutSettings:
        if self.min_amount > self.max_amount:
            raise _inconsistent(
                self, "min_amount",
                f"min_amount ({self.min_amount}) is larger than max_amount ({self.max_amount}): "
                "no amount could be charged; make min_amount <= max_amount")
        return self

    @field_validator("poll_intervals_s", mode="before")
    @classmethod
    def _intervals(cls, value: object) -> object:
        if isinstance(value, list):
            value = tuple(value)
        if isinstance(value, tuple) and (not value or any(
            not isinstance(v, int | float) or isinstance(v, bool) or v != v
            or not MIN_POLL_INTERVAL_S <= v <= 600 for v in value
        )):
            raise ValueError(f"must be a non-empty list of seconds, each from "
                             f"{MIN_POLL_INTERVAL_S:g} to 600 (no nan or inf)")
        return value


class ScannerSettings(_Section):
    source: str = "wedge"
    decoder: str = "zxing"
    code_alphabet: str = Field(default="0123456789", min_length=1)
    code_min_length: int = Field(default=16, gt=0, le=256)
    code_max_length: int = Field(default=24, gt=0, le=256)
    debounce_s: float = Field(default=3.0, ge=0, le=60)
    wedge_max_interkey_ms: float = Field(default=35.0, ge=1, le=1000)
    wedge_min_length: int = Field(default=8, gt=0, le=256)
    rescue: bool = True

    @field_validator("code_alphabet")
    @classmethod
    def _ascii_alphabet(cls, value: str) -> str:
        # A payment code is printable ASCII; "０１２" (fullwidth) or "٠١٢" (Arabic-Indic) digits
        # would let a misread through.
        if not (value.isascii() and value.isprintable()) or " " in value:
            raise ValueError("must be printable ASCII characters without spaces, e.g. "
                             "\"0123456789\"")
        return value

    @model_validator(mode="after")
    def _lengths(self) -> ScannerSettings:
        if self.code_min_length > self.code_max_length:
            raise _inconsistent(
                self, "code_min_length",
                f"code_min_length ({self.code_min_length}) is larger than code_max_length "
                f"({self.code_max_length}): no code could be read; make code_min_length <= "
                "code_max_length")
        if self.wedge_min_length > self.code_max_length:
            raise _inconsistent(
                self, "wedge_min_length",
                f"wedge_min_length ({self.wedge_min_length}) is larger than code_max_length "
                f"({self.code_max_length}): no scan could be told from typing; make "
                "wedge_min_length <= code_max_length")
        return self


#: The emulator's public test key, shipped with the package: [emulator] private_key when the file
#: names none, so that config/default.toml works wherever it is copied.
EMULATOR_TEST_KEY = Path(__file__).parent / "emulator" / "emulator-test-private-key.pem"


class EmulatorSettings(_Section):
    private_key: FilePath = EMULATOR_TEST_KEY
    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=0, le=65535)
    code_lifetime_s: float = Field(default=60.0, ge=0.1, le=DAY_S)
    processing_s: float = Field(default=3.0, ge=0, le=600)
    app_time_tolerance_s: float = Field(default=900.0, ge=1, le=DAY_S)
    # Faults active from start: [{endpoint, mode, count, wallet, delay_s, status, return_code}];
    # the emulator validates each entry and names `[emulator] faults[i]` in its errors.
    faults: tuple[dict[str, Any], ...] = ()
    # Server-to-server callbacks: the URL registered for the application (an order's own
    # callback_url wins), and the delays between the retries of a failed delivery.
    callback_url: str = ""
    callback_retry_delays_s: tuple[float, ...] = (5.0, 15.0, 60.0)
    callback_timeout_s: float = Field(default=5.0, gt=0)
    # Who may reach it (emulator/guard.py): Host names it answers to besides localhost and this
    # machine's addresses and host name; the hosts its callbacks may go to ("*": any).
    allowed_hosts: tuple[str, ...] = ()
    callback_hosts: tuple[str, ...] = ("127.0.0.1", "::1", "localhost")

    @field_validator("allowed_hosts", "callback_hosts", mode="before")
    @classmethod
    def _hosts(cls, value: object) -> object:
        if isinstance(value, list):
            value = tuple(value)
        if isinstance(value, tuple) and not all(
                isinstance(v, str) and v and v.isascii() and v.isprintable() and " " not in v
                for v in value):
            raise ValueError("must be a list of host names or IP addresses, e.g. "
                             '["127.0.0.1", "merchant.test"]')
        return value

    @field_validator("callback_url")
    @classmethod
    def _callback_url(cls, value: str) -> str:
        if value:
            _check_url(value)  # checked, kept as written (a trailing / may matter to a server)
        return value

    @field_validator("callback_retry_delays_s", mode="before")
    @classmethod
    def _delays(cls, value: object) -> object:
        if isinstance(value, list):
            value = tuple(float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                          for v in value)
        if isinstance(value, tuple) and any(
                not isinstance(v, int | float) or isinstance(v, bool) or v < 0 for v in value):
            raise ValueError("must be a list of seconds >= 0 (one per retry)")
        return value

    @field_validator("faults", mode="before")
    @classmethod
    def _faults(cls, value: object) -> object:
        return tuple(value) if isinstance(value, list) else value


class UiSettings(_Section):
    result_timeout_s: float = Field(default=6.0, ge=0.1, le=3600)
    camera_preview: bool = False


class LedgerSettings(_Section):
    """The fleet ledger (PostgreSQL); no dsn (and no POS_LEDGER_DSN) means no sync."""

    dsn: SecretStr = SecretStr("")  # may hold a password: never shown
    batch_size: int = Field(default=500, gt=0, le=10_000)
    interval_s: float = Field(default=0.25, gt=0)  # how often the outbox is looked at
    max_backoff_s: float = Field(default=60.0, gt=0)
    connect_timeout_s: float = Field(default=3.0, gt=0, le=60)
    statement_timeout_s: float = Field(default=15.0, gt=0)
    # The CA that signed the ledger server's certificate, when it is a private one (PEM); else
    # the machine's public CAs. Relative to this file.
    ca_file: Annotated[Path | None, _file_path(
        "must name a file (leave it out for the machine's public CAs)")] = None
    # Only with an explicit sslmode=disable|allow|prefer|require in the DSN: allows a connection
    # without verified TLS (docs/fleet.md). Never needed for a Unix socket.
    insecure: bool = False



DEFAULT_RECEIPT_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")


class ShopSettings(_Section):
    """What a receipt says at the top; all optional."""

    name: str = Field(default="", max_length=100)
    address: str = Field(default="", max_length=300)
    tax_id: str = Field(default="", max_length=30)

    # Printed on every receipt: an ESC or GS byte would be a printer command (ESC p opens the
    # cash drawer).
    _plain = field_validator("name", "address", "tax_id")(_plain_text)


class PrinterSettings(_Section):
    """The receipt printer (ESC/POS); no target means receipts are only shown or saved."""

    # usb:VID:PID, serial:/dev/ttyUSB0[:baud], tcp:HOST[:9100], file:/path; "" = none
    target: str = ""
    auto: bool = False  # print after every settled payment or refund (counter/listeners)
    # A code page with Vietnamese letters the printer has ("CP1258"); "" prints Vietnamese
    # text as a raster image drawn with `font`.
    codepage: Literal["", "CP1258"] = ""
    width: Literal[32, 42, 48] = 42  # characters per line: 58 mm paper 32, 80 mm 42 or 48
    font: FilePath = DEFAULT_RECEIPT_FONT  # TrueType font with Vietnamese glyphs (raster printing)
    timeout_s: float = Field(default=10.0, gt=0, le=120)
    copies: int = Field(default=1, ge=1, le=2)  # 2: "Liên 1" for the customer, "Liên 2" kept
    # A folder: every receipt and slip printed is also saved there as a PNG picture of the
    # paper, named on screen (the demo's printer; a shop's own copy). "" = none.
    pictures: str = ""



class SpeakerSettings(_Section):
    """The spoken result (espeak-ng): "Đã nhận 50.000 đồng" on PAID, another sound on NOT
    PAID. `language` "" speaks the terminal's; `output` a folder: WAV files written there
    instead of played (no sound device)."""

    enabled: bool = False
    volume: int = Field(default=100, ge=0, le=200)  # espeak-ng's amplitude; 100 is normal
    language: Literal["", "vi", "en"] = ""
    output: str = ""


class CashierSettings(_Section):
    """PIN lock-out: after `max_attempts` wrong PINs in a row, the id is locked `lockout_s`."""

    max_attempts: int = Field(default=5, ge=1, le=100)
    lockout_s: float = Field(default=300.0, ge=0)


class ApiSettings(_Section):
    """The Terminal API (`pos-terminal serve`, or beside the UI with `with_ui`)."""

    host: str = "127.0.0.1"  # beyond loopback only with TLS (cert_file and key_file)
    port: int = Field(default=8780, ge=0, le=65535)
    cert_file: OptionalFile = None  # PEM certificate (chain) for TLS
    key_file: OptionalFile = None  # its private key (PEM)
    with_ui: bool = False  # the UI serves the API too, over its own counter (one process)
    scan_timeout_s: float = Field(default=60.0, gt=0, le=3600)  # a payment waiting for a scan
    # Host names the API answers to besides localhost and this machine's addresses and host
    # name (a counter reached by name); any other Host header gets 421 (base/hosts.py)
    allowed_hosts: tuple[str, ...] = ()
    # payments under way at once (each waits on the wallet in a thread of its own pool, so
    # look-ups, aborts and events never wait behind them); one more answers 503 busy
    max_payments: int = Field(default=512, ge=1, le=4096)

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _hosts(cls, value: object) -> object:
        return EmulatorSettings._hosts(value)


#: The file and the environment of the load in progress: pydantic-settings builds its sources per
#: class, not per call (pydantic/pydantic-settings#250), so load_settings hands them over here.
_READING: ContextVar[tuple[Path, Mapping[str, str]] | None] = ContextVar(
    "pos_terminal_config_reading", default=None)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(extra="forbid", frozen=True, strict=True,
                                      allow_inf_nan=False, case_sensitive=True)

    service: ServiceSettings
    terminal: TerminalSettings
    checkout: CheckoutSettings = CheckoutSettings()
    scanner: ScannerSettings = ScannerSettings()
    emulator: EmulatorSettings = EmulatorSettings()
    ui: UiSettings = UiSettings()
    ledger: LedgerSettings = LedgerSettings()
    shop: ShopSettings = ShopSettings()
    printer: PrinterSettings = PrinterSettings()
    speaker: SpeakerSettings = SpeakerSettings()
    cashiers: CashierSettings = CashierSettings()
    api: ApiSettings = ApiSettings()
    # made when a Settings is, not at import: its tables are the registry's, and the registry
    # imports this module while it loads the built-in wallets
    providers: ProvidersSettings = Field(default_factory=ProvidersSettings)
    source: Path = Path("<memory>")
    warnings: tuple[str, ...] = ()
    # Whether the file names [terminal] terminal_id (rather than it being derived from
    # app_user): a counter that ships to a fleet ledger must name it (set when loading).
    terminal_id_set: bool = True
    # Whether the file or the locale names the language (rather than it being the default):
    # the counter's screens then start in Vietnamese (cli/ui_cmds.screen_language).
    language_named: bool = True

    @model_validator(mode="after")
    def _some_wallet(self) -> Settings:
        if not self.wallets:
            raise _inconsistent(self.service, "enabled", _(
                "no wallet is enabled: this counter could take no payment. Keep [service] "
                "enabled = true (ZaloPay), or configure one of: {sections}").format(
                    sections=", ".join(f"[{d.section}]" for d in wallet_registry.wallets().values()
                                       if d.providers_key is not None)))
        return self

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Highest first: the values given to the constructor, the environment's secrets, the
        file, the locale's language. Outside load_settings: the constructor's values only."""
        reading = _READING.get()
        if reading is None:
            return (init_settings,)
        file, environ = reading
        return (init_settings, _EnvironmentSecrets(settings_cls, environ),
                _TomlFile(settings_cls, file), _LocaleLanguage(settings_cls, environ))

    @property
    def private_files(self) -> bool:
        """Whether files holding secrets or payments must be unreadable by other users: always,
        except in the emulator profile (its keys are public test keys)."""
        return self.service.environment != "emulator"

    def wallet_section(self, wallet: str) -> BaseModel | None:
        """The settings of `wallet` as written ([service] for ZaloPay), None when not written."""
        declared = wallet_registry.wallet(wallet)
        if declared.providers_key is None:
            section: BaseModel | None = getattr(self, declared.section)
            return section
        table: BaseModel | None = getattr(self.providers, declared.providers_key)
        return table

    @property
    def wallets(self) -> tuple[str, ...]:
        """The wallet providers this counter takes, in the registry's order (ZaloPay first)."""
        return tuple(name for name in wallet_registry.names()
                     if getattr(self.wallet_section(name), "enabled", False))

    def code_pattern(self, wallet: str) -> str:
        """The pattern a scanned code of `wallet` matches (routing between wallets)."""
        section = self.wallet_section(wallet)
        pattern = getattr(section, "code_pattern", None)
        return pattern if isinstance(pattern, str) else (
            wallet_registry.wallet(wallet).default_code_pattern)

    @property
    def longest_request_s(self) -> float:
        """The longest a request to any wallet this counter takes may wait (connect + read):
        what a sender's lease covers."""
        return max((self.request_s(name) for name in wallet_registry.names()
                    if self.wallet_section(name) is not None), default=0.0)

    def request_s(self, wallet: str) -> float:
        """The longest one request to `wallet` may wait (connect + read): what the lease of
        that wallet's payment or refund covers (its declaration says how: one wallet's answer
        may take 30 s, another's far less)."""
        declared = wallet_registry.wallet(wallet)
        # without its section (a Checkout built by hand): its defaults
        section = self.wallet_section(wallet) or declared.settings_model.model_construct()
        return declared.request_s(section)

    @property
    def scan_alphabet(self) -> str:
        """The characters a scanned payment code may hold: [scanner] code_alphabet, and the
        letters the codes of the wallets this counter takes use (their declared
        `code_letters`), so that no scan source drops them."""
        extra = "".join(wallet_registry.wallet(name).code_letters for name in self.wallets)
        return self.scanner.code_alphabet + "".join(dict.fromkeys(
            ch for ch in extra if ch not in self.scanner.code_alphabet))

    def replace_service(self, **changes: Any) -> Settings:
        """A copy with some [service] values changed (validated like the file)."""
        return self.replace_section("service", **changes)

    def replace_section(self, section: str, **changes: Any) -> Settings:
        """A copy with values of any section changed, e.g. ("checkout", poll_deadline_s=5)."""
        if section.startswith("providers."):  # a table of [providers], its wallet's model
            key = section.removeprefix("providers.")
            model = _provider_models()[key]
            table = getattr(self.providers, key)
            data = {**(table.model_dump() if table is not None else {}), **changes}
            return self.model_copy(update={"providers": self.providers.model_copy(
                update={key: model.model_validate(data)})})
        current: BaseModel = getattr(self, section)
        updated = type(current).model_validate({**current.model_dump(), **changes})
        return self.model_copy(update={section: updated})


class _MappingSource(PydanticBaseSettingsSource):
    """A source that hands over a ready nested mapping ({section: {key: value}})."""

    values: dict[str, Any]

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return self.values.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return self.values


class _EnvironmentSecrets(_MappingSource):
    """POS_KEY1, POS_KEY2, POS_RSA_PUBLIC_KEY and POS_LEDGER_DSN over the file's values (an
    empty variable counts as unset)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self.values = {}
        for var, (section, key) in ENV_OVERRIDES.items():
            if environ.get(var):
                self.values.setdefault(section, {})[key] = environ[var]


class _LocaleLanguage(_MappingSource):
    """`[terminal] language` when the file leaves it out: from LC_ALL / LC_MESSAGES / LANG
    (nothing when they name no language: unset, C or POSIX; the field's default then)."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        language = locale_language(dict(environ))
        self.values = {"terminal": {"language": language}} if language is not None else {}


class _TomlFile(TomlConfigSettingsSource):
    """The configuration file; every way it can be unreadable is one ConfigError naming it,
    and so is a missing [service] or [terminal] table."""

    def __init__(self, settings_cls: type[BaseSettings], file: Path) -> None:
        if not file.exists():
            raise ConfigError(file, None, "configuration file not found")
        if file.is_dir():
            raise ConfigError(file, None, f"cannot read the file: {os.strerror(errno.EISDIR)}")
        self.file = file
        super().__init__(settings_cls, toml_file=file)
        for section in ("service", "terminal"):
            if section not in self.toml_data:
                raise ConfigError(file, f"[{section}]", "missing required section")
            if not isinstance(self.toml_data[section], dict):
                raise ConfigError(file, f"[{section}]", f"must be a table: [{section}] on a "
                                  "line of its own, its keys on the lines below")

    def _read_file(self, file_path: Any) -> dict[str, Any]:
        file = self.file
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise ConfigError(file, None, f"cannot read the file: {exc.strerror}") from None
        try:
            return tomllib.loads(raw.decode("utf-8"))
        except tomllib.TOMLDecodeError as exc:
            # "Illegal character '\x01'" would repeat a character of a secret: the place is
            # enough.
            reason = re.sub(r"character '.*?' ", "character ", str(exc))
            raise ConfigError(file, None, f"not valid TOML: {clean(reason)}") from None
        except UnicodeDecodeError as exc:  # its text would repeat a byte of what was written
            raise ConfigError(file, None, f"not valid TOML: the file is not UTF-8 text (at "
                              f"byte {exc.start}); save it as UTF-8") from None
        except ValueError:  # an integer of more than 4300 digits (Python's int() limit)
            raise ConfigError(file, None, "not valid TOML: a number is thousands of digits "
                              "long; no setting takes such a number") from None


def default_config_path() -> Path:
    repo = _REPO_CONFIG / "default.toml"
    return repo if repo.exists() else Path.cwd() / "config" / "default.toml"


def _derive_environment(base_url: str) -> str:
    host = (urlsplit(base_url).hostname or "").lower()
    if host == "localhost":
        return "emulator"
    try:
        if ipaddress.ip_address(host).is_loopback:
            return "emulator"
    except ValueError:
        pass
    if re.search(r"(^|[.-])(sb|sandbox|sbgateway)", host):
        return "sandbox"
    return "production"


#: (section, key) of the values never repeated in a message (and each wallet's secrets).
_SECRET_LOCATIONS = frozenset({("service", "key1"), ("service", "key2"), ("ledger", "dsn")})


def _secret_locations() -> frozenset[tuple[str, ...]]:
    return _SECRET_LOCATIONS | {(*decl.section.split("."), key)
                                for decl in wallet_registry.wallets().values()
                                for key in decl.secret_settings}


def _describe(err: Mapping[str, Any]) -> tuple[str, str]:
    loc = [str(p) for p in err.get("loc", ())]
    key = f"[{loc[0]}] {'.'.join(loc[1:])}".strip() if len(loc) > 1 else (
        f"[{loc[0]}]" if loc else "")
    if len(loc) > 2 and loc[0] == "providers":  # [providers.<wallet>] secret_key
        key = f"[providers.{loc[1]}] {'.'.join(loc[2:])}"
    kind = err.get("type", "")
    env = next((var for var, place in ENV_OVERRIDES.items()
                if place[0] == "service" and tuple(loc) == place), None)
    if env is not None and kind in ("missing", "too_short", "string_too_short"):
        return key, _("missing required key: set {name} in [service], or the environment "
                      "variable {env}").format(name=loc[1], env=env)
    if kind == "missing":
        return key, "missing required key"
    if kind == "extra_forbidden":
        return key, "unknown key (check the spelling; see config/default.toml)"
    ctx_error = err.get("ctx", {}).get("error")
    message = str(ctx_error) if ctx_error is not None else str(err.get("msg", "invalid value"))
    secrets = _secret_locations()
    if tuple(loc[:2]) in secrets or tuple(loc[:3]) in secrets:
        # A secret written wrong (key1 = 12345) is still a secret: say what it should be,
        # never what it is. The messages of string checks do not repeat the value.
        return key, message + (" " + _("(the value is not shown: it is a secret)")
                               if kind.endswith("_type") else "")
    return key, (f"{message} (got {_shown(err.get('input'))})" if kind.endswith("_type")
                 else message)


def _shown(value: object) -> str:
    """A value as an error repeats it: short, on one line, without escape sequences."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return clean(text if len(text) <= 80 else text[:77] + "...")


def _file_secrets(file: Path) -> tuple[str, ...]:
    """The secret values written in the file itself (not those the environment gives)."""
    try:
        data = tomllib.loads(file.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return ()
    found: list[str] = []
    for place in sorted(_secret_locations()):
        value: object = data
        for part in place:
            value = value.get(part) if isinstance(value, dict) else None
        if isinstance(value, str) and value:
            found.append(value)
    return tuple(found)


def _public_test_secrets() -> frozenset[str]:
    """key1/key2 of the shipped emulator profile (config/default.toml): public in the
    repository, so a file holding only these holds no secret."""
    return frozenset(_file_secrets(default_config_path()))


def _check_permissions(path: Path, environment: str) -> str | None:
    """Refuse a file other users may change (whoever edits it can send the payments
    elsewhere), and one they may read while it holds a secret outside the emulator profile.
    In the emulator profile a readable file with keys of its own is only warned about."""
    loose = loose_permissions(path)
    if loose == "write":
        raise ConfigError(path, None, _(
            "other users can change this file (group or others may write it), so they could "
            "send the payments elsewhere; run: chmod 600 {file}").format(file=path))
    if loose != "read" or not (secrets := _file_secrets(path)):
        return None
    if environment != "emulator":
        raise ConfigError(path, None, _(
            "the file holds secrets (key1, key2 or the ledger's password) and other users can "
            "read it; run: chmod 600 {file} (or give the secrets as POS_KEY1, POS_KEY2, "
            "POS_LEDGER_DSN)").format(file=path))
    if not set(secrets) <= _public_test_secrets():
        return (f"{path} holds secret keys and other users can read it; "
                f"run: chmod 600 {path}")
    return None


def load_settings(path: Path | str | None = None,
                  env: Mapping[str, str] | None = None) -> Settings:
    """Read one configuration file, the environment's secrets over it, and validate both."""
    file = Path(path).expanduser().absolute() if path is not None else default_config_path()
    reading = _READING.set((file, os.environ if env is None else env))
    try:
        settings = Settings(source=file)  # type: ignore[call-arg]  # the sources give the rest
    except ValidationError as exc:
        errors = [_describe(e) for e in exc.errors()]
        key, message = errors[0]
        extra = "".join(f"\n  {k}: {m}" for k, m in errors[1:])
        raise ConfigError(file, key, message + extra) from None
    finally:
        _READING.reset(reading)
    return _resolve(settings, file)


#: (section, key) of the paths written relative to the configuration file.
_RELATIVE_PATHS = (("terminal", "journal"), ("emulator", "private_key"), ("printer", "font"),
                   ("ledger", "ca_file"))


def _resolve(settings: Settings, file: Path) -> Settings:
    """Paths relative to the file, the terminal id a counter without one goes by, and the
    verdict on the file's permissions."""
    update: dict[str, Any] = {}
    for section, key in _RELATIVE_PATHS:
        current = getattr(settings, section)
        path: Path | None = getattr(current, key)
        if path is not None:
            path = path.expanduser()
            update[section] = current.model_copy(update={key: file.parent / path})
    key_file = update["emulator"].private_key
    if not key_file.is_file():  # one sentence now, not a traceback when the emulator starts
        raise ConfigError(file, "[emulator] private_key", _(
            "{path} is not a file (a relative path is read from this file's folder; leave the "
            "key out for the emulator's built-in test key)").format(path=key_file))
    terminal_id = settings.terminal.terminal_id or re.sub(
        r"[^A-Za-z0-9]", "", settings.terminal.app_user)[:8] or "pos"
    update["terminal"] = update["terminal"].model_copy(update={"terminal_id": terminal_id})
    warning = _check_permissions(file, settings.service.environment)
    return settings.model_copy(update={
        **update, "warnings": (warning,) if warning else (),
        "terminal_id_set": bool(settings.terminal.terminal_id),
        "language_named": "language" in settings.terminal.model_fields_set})
