"""`pos-terminal` (no command): the cashier's UI; `demo`: emulator + UI with a synthetic
camera; `headless`: the line protocol for a counter with no screen."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pos_terminal.base.i18n import _, set_language
from pos_terminal.base.reasons import Reason
from pos_terminal.cli.common import LANGUAGE_META, fail, load_settings_or_exit
from pos_terminal.config import Settings
from pos_terminal.counter import missing_device, source_factory

DEMO_FOLDER = Path("~/pos-terminal-demo")
DEMO_SHOP = "Cửa hàng Demo"
DEMO_SHOP_ADDRESS = "1 Đồng Khởi, Quận 1, TP.HCM"

if TYPE_CHECKING:
    from hardware import ScanSource
    from pos_terminal.api.server import ApiServer
    from pos_terminal.counter import Counter, SignedIn


def scanner_unusable(spec: str, problem: Reason) -> str:
    return _("the scanner {spec!r} cannot be used: {problem}. Fix --scanner (or [scanner] "
             "source in the configuration) and start again; nothing was charged.").format(
        spec=spec, problem=problem)


def open_scanner(settings: Settings, spec: str, *,
                 device_required: bool = False) -> Callable[[], ScanSource | None]:
    """Build the source now, so a bad SPEC stops the command with its message (exit 2) instead
    of surfacing later. With `device_required` (headless: the scanner is its only input), a
    device that is not there stops it too; the UI tells the cashier instead (the keyboard wedge
    still works)."""
    problem = missing_device(spec) if device_required else None
    if problem is not None:
        fail(scanner_unusable(spec, problem))
    try:
        source = source_factory(settings, spec)()
    except ValueError as exc:  # hardware.SpecError, or an unknown decoder
        fail(str(exc))
    return lambda: source


def screen_language(ctx: click.Context, settings: Settings) -> Settings:
    """The language the counter's screens (the UI and the demo alike) start in: --language,
    else [terminal] language, else the locale's; when none names one (no key in the file, and
    LANG unset, C or POSIX), Vietnamese: a Vietnamese counter."""
    if ctx.meta.get(LANGUAGE_META) is None and not settings.language_named:
        settings = settings.replace_section("terminal", language="vi")
        set_language("vi")
    return settings


def open_counter_or_exit(settings: Settings) -> Counter:
    from pos_terminal.counter import open_counter
    from pos_terminal.counter.types import JournalError

    try:
        counter = open_counter(settings)
    except JournalError as exc:
        fail(exc.message)
    try:
        # A first read of what the UI and the loop show first (the newest rows, the open ones):
        # a journal that opens but cannot be read stops here with its sentence, not on screen.
        counter.history.list(limit=50, newest_first=True)
        counter.payments.pending_count()
    except JournalError as exc:
        counter.close()
        fail(exc.message)
    return counter


def run_ui(ctx: click.Context) -> None:
    """The Textual UI with the configured scanner (`pos-terminal` with no command)."""
    settings = screen_language(ctx, load_settings_or_exit(ctx))
    from pos_terminal.tui.app import PosApp

    scanner = open_scanner(settings, settings.scanner.source)
    counter = open_counter_or_exit(settings)
    api = None
    try:
        if settings.api.with_ui:
            api = serve_beside(counter)
            click.echo(display_line(api))
        PosApp(settings, counter, scanner,
               display_url=None if api is None else api.url + "/display").run()
    finally:
        if api is not None:
            api.stop()
        counter.close()


def serve_beside(counter: Counter, *, free_port: bool = False) -> ApiServer:
    """`[api] with_ui` (and always in the demo, on a free port unless the file sets with_ui):
    the Terminal API and the customer display in a thread, over the UI's own counter (the
    display shows the cashier's payments; the POS sends payment codes)."""
    from pos_terminal.api.server import ApiServer, Binding, ServeError, open_terminal

    cfg = counter.settings.api
    port = 0 if free_port else cfg.port
    try:
        return ApiServer(open_terminal(counter), Binding(cfg.host, port, cfg.cert_file,
                                                         cfg.key_file)).start()
    except ServeError as exc:
        fail(exc.message)  # the caller closes the counter


def register_demo_webhooks(settings: Settings, api_url: str) -> None:
    """Every demo wallet that takes a webhook sends its notices to the demo's own Terminal API
    (a transfer after a QR was given up is then found at once); one that refuses says so."""
    from pos_terminal import wallet_registry
    from pos_terminal.base.wallet_errors import WalletError
    from pos_terminal.sentences.labels import wallet_name

    for name in settings.wallets:
        declared = wallet_registry.wallet(name)
        if declared.register_webhook is None:
            continue
        try:
            wallet_registry.resolve(declared.register_webhook)(
                settings, f"{api_url}/v1/webhooks/{name}")
        except WalletError as exc:
            click.echo(_("{wallet} sends no notices to this demo ({reason}); the terminal "
                         "still asks it.").format(wallet=wallet_name(name), reason=exc.message),
                       err=True)


def display_line(api: ApiServer) -> str:
    return _("Customer display: {url}  (open it in a browser beside the terminal; F10 in the "
             "terminal shows this address again)").format(url=api.url + "/display")


@click.command("demo")
@click.option("--camera", type=int, default=None, metavar="N",
              help="Use webcam N instead of the synthetic camera; hold a phone (or a second "
                   "screen) showing the emulator's wallet page up to it.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address the in-process emulator binds; 0.0.0.0 lets a phone on the same "
                   "network open its wallet page (the URL is printed).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port of the in-process emulator (0: a free one).")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path),
              default=DEMO_FOLDER, show_default=True,
              help="Where each demo run keeps its journal, CSV exports and printed slips (a "
                   "folder of its own per run, kept after the demo).")
@click.pass_context
def demo_command(ctx: click.Context, camera: int | None, host: str, port: int,
                 folder: Path) -> None:
    """The emulator and the UI together: a cashier's whole day by keyboard alone.

    It opens on the Sale screen signed in as the demo cashier. Type an amount and press Enter:
    a moment later the synthetic camera holds up the chosen customer's payment code (F9 on the
    sale screen, or a digit on the pay screen, chooses the customer: every wallet's demo
    customers, in the registry's order, among them one processing past 2 minutes and one whose
    payment needs review; the demo counter takes every wallet). F12 closes the shift; the
    sign-in screen names the demo cashier's and supervisor's ids and PINs. The printer saves
    each slip as a picture.
    """
    settings = screen_language(ctx, load_settings_or_exit(ctx))
    from pos_terminal.emulator import start_emulator
    from pos_terminal.tui.app import PosApp
    from pos_terminal.tui.demo import DemoController

    try:
        emulator = start_emulator(settings, host=host, port=port)
    except ValueError as exc:  # its key or faults: the sentence names the file or key
        fail(str(exc))
    except OSError as exc:
        fail(_("the emulator could not start on {address}: {error}").format(
            address=f"{host}:{port}", error=exc.strerror or exc))
    run = demo_run_folder(folder)
    with emulator:
        demo_settings = demo_wallets(settings, emulator.base_url, emulator.gateway_url)
        demo_settings = demo_settings.replace_section(
            "terminal", journal=run / "journal.sqlite3")
        demo_settings = demo_settings.replace_section(
            "printer", target=f"file:{run / 'printer.escpos'}", pictures=str(run / "slips"),
            auto=False, copies=1)
        if not demo_settings.shop.name:
            demo_settings = demo_settings.replace_section(
                "shop", name=DEMO_SHOP, address=DEMO_SHOP_ADDRESS)
        if camera is None:
            from hardware import SyntheticSource

            synthetic = source_factory(demo_settings, "synthetic")()
            assert isinstance(synthetic, SyntheticSource)
            demo = DemoController(emulator.base_url, synthetic.show,
                                  control_token=emulator.control_token, folder=run)
            factory: Callable[[], ScanSource | None] = lambda: synthetic  # noqa: E731
        else:
            demo = DemoController(emulator.base_url, None,
                                  control_token=emulator.control_token, folder=run)
            factory = open_scanner(demo_settings, f"camera:{camera}")
            click.echo(_("Emulator wallet page: {url}  (open it on a phone or a second screen "
                         "and hold its code up to the camera)").format(
                             url=f"{emulator.public_url}/wallets"))
        counter = open_counter_or_exit(demo_settings)
        api = None
        try:
            signed = demo_staff(counter)
            # the customer display beside the demo: the showroom shows both screens
            api = serve_beside(counter, free_port=not demo_settings.api.with_ui)
            click.echo(display_line(api))
            register_demo_webhooks(demo_settings, api.url)
            for line in demo.customer_pages():
                click.echo(line)
            PosApp(demo_settings, counter, factory, demo, signed_in=signed,
                   display_url=api.url + "/display").run()
        finally:
            if api is not None:
                api.stop()
            counter.close()
            demo.close()
    click.echo(_("Demo finished; its journal, CSV exports and printed slips are in {folder}")
               .format(folder=run))


def demo_wallets(settings: Settings, base_url: str, gateway_url: str) -> Settings:
    """The demo counter's wallets: every registered wallet with demo settings, side by side,
    each pointed at the demo's emulator as its demo merchant (wallet_registry: `demo_settings`).
    Only the demo's settings: config/default.toml keeps one wallet."""
    from pos_terminal import wallet_registry

    demo = settings
    for declared in wallet_registry.wallets().values():
        if declared.demo_settings is not None:
            values = wallet_registry.resolve(declared.demo_settings)(demo, base_url, gateway_url)
            demo = demo.replace_section(declared.section, **values)
    return demo


def demo_run_folder(folder: Path) -> Path:
    """A new folder for this run under `folder` (named for the time it started)."""
    from pos_terminal.base.clock import now

    base = folder.expanduser()
    stamp = now().strftime("%Y-%m-%d_%H-%M-%S")
    run = base / stamp
    number = 1
    while run.exists():
        number += 1
        run = base / f"{stamp}_{number}"
    try:
        run.mkdir(parents=True)
    except OSError as exc:
        fail(_("the demo cannot write its folder {folder}: {error}. Choose another with "
               "--folder.").format(folder=run, error=exc.strerror or exc))
    return run


def demo_staff(counter: Counter) -> SignedIn:
    """The demo's cashier and supervisor in its fresh journal; the cashier signed in (her
    shift open), so the demo opens on the Sale screen."""
    from pos_terminal.tui.demo import DEMO_CASHIER, DEMO_PEOPLE

    book = counter.cashiers.book()
    for person in DEMO_PEOPLE:
        book.add(person.id, person.name, person.pin, supervisor=person.supervisor)
    return counter.cashiers.sign_in(DEMO_CASHIER.id, DEMO_CASHIER.pin)


@click.command("headless")
@click.option("--scanner", "spec", required=True, metavar="SPEC",
              help="Scanner source, e.g. camera:0, serial:/dev/ttyACM0, evdev:/dev/input/event3.")
@click.option("--serial", "serial_path", default=None, metavar="PATH",
              help="Take commands from (and answer on) this serial port instead of stdin/stdout.")
@click.option("--baud", default=9600, show_default=True, help="Baud rate of --serial.")
@click.option("--scan-timeout", default=60.0, show_default=True, metavar="SECONDS",
              help="How long PAY waits for a payment code.")
@click.pass_context
def headless_command(ctx: click.Context, spec: str, serial_path: str | None, baud: int,
                     scan_timeout: float) -> None:
    """Counter mode with no screen: one command a line in, one JSON object a line out.

    PAY <amount> [description] · STATUS <app_trans_id> · REFUND <app_trans_id> [amount] ·
    RECONCILE · LEDGER · QUIT
    """
    settings = load_settings_or_exit(ctx)
    from pos_terminal.headless import serve
    from pos_terminal.ledger import LedgerError, start_background_sync
    from pos_terminal.sentences import use_front_end

    use_front_end("lines")  # what stops it before serving is said for the shell too

    try:  # first: a configuration problem stops here with nothing opened yet
        sync = start_background_sync(settings)  # None without a ledger
    except LedgerError as exc:
        fail(exc.message)
    try:
        scanner = open_scanner(settings, spec, device_required=True)
    except BaseException:
        if sync is not None:
            sync.stop()
        raise
    counter = open_counter_or_exit(settings)
    status = (lambda: sync.status.to_json()) if sync is not None else None
    try:
        if serial_path is None:
            # bytes in (each line decoded, a non-UTF-8 line refused), UTF-8 out whatever the
            # locale: the answers stay a valid UTF-8 JSON stream
            sys.stdout.reconfigure(encoding="utf-8", errors="strict")  # type: ignore[union-attr]
            serve(counter, scanner, sys.stdin.buffer, sys.stdout, scan_timeout_s=scan_timeout,
                  ledger=status)
        else:
            line = _serial_line(serial_path, baud)
            try:
                serve(counter, scanner, line, line, scan_timeout_s=scan_timeout, ledger=status)
            finally:
                line.close()
    finally:
        if sync is not None:
            sync.stop()
        counter.close()


class SerialLine:
    """The cash register's serial line: an iterator of command lines and a writer of answers."""

    def __init__(self, port: Any) -> None:
        self._port = port

    def __iter__(self) -> Iterator[bytes]:
        while True:
            raw = self._port.read_until(b"\n")  # blocks (timeout None) until a whole line
            if not raw:
                return
            yield bytes(raw)  # decoded by the loop, which refuses a line that is not UTF-8

    def write(self, text: str) -> int:
        return int(self._port.write(text.replace("\n", "\r\n").encode("utf-8")))

    def flush(self) -> None:
        self._port.flush()

    def close(self) -> None:
        self._port.close()


def _serial_line(path: str, baud: int) -> SerialLine:
    import serial

    try:
        return SerialLine(serial.serial_for_url(path, baudrate=baud, timeout=None))
    except serial.SerialException as exc:
        fail(_("cannot open the serial port {path}: {error}").format(path=path, error=exc))


def register(group: click.Group) -> None:
    group.add_command(demo_command)
    group.add_command(headless_command)
