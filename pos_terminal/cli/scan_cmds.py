"""scan-image and scan: the scanning part of the terminal, usable on its own to set up a counter."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import click

from pos_terminal.base.clock import format_time
from pos_terminal.base.codes import mask_code
from pos_terminal.cli.common import EXIT_FAILED, fail, load_settings_or_exit, print_json


def vn_clock(t: float) -> str:
    """A scan event's time (Unix seconds) as HH:MM:SS in Vietnam time (GMT+7), like every other
    time the terminal shows, whatever the machine's own time zone."""
    return format_time(int(t * 1000))


@click.command("scan-image")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object a line: {"file", "codes": [{"text", "symbology", '
                   '"payment_code"}]}.')
@click.option("--decoder", default=None, metavar="NAME",
              help="zxing, pyzbar or pyzbar-all (default: scanner.decoder from the config).")
@click.pass_context
def scan_image_cmd(ctx: click.Context, files: tuple[Path, ...], as_json: bool,
                   decoder: str | None) -> None:
    """Decode the barcodes and QR codes in still images.

    Prints every symbol found in each FILE, whatever it holds (this is a diagnostic tool): one
    that the code filter (scanner.code_*) would refuse is marked "not a payment code"
    ("payment_code": false in JSON); the terminal would ignore it. Exit 0 if at least one file
    had a code, 1 if none had, 2 when a file could not be read at all.
    """
    from hardware import DECODER_NAMES, CodeFilter, ImageUnreadable, decode_image

    settings = load_settings_or_exit(ctx)
    sc = settings.scanner
    code_filter = CodeFilter(settings.scan_alphabet, sc.code_min_length, sc.code_max_length)
    name = decoder or settings.scanner.decoder
    if name not in DECODER_NAMES:
        fail(f"unknown decoder {name!r}: use one of {', '.join(DECODER_NAMES)}")
    any_code = False
    unreadable = 0
    for path in files:
        try:
            codes = decode_image(path, name, rescue=settings.scanner.rescue)
        except ImageUnreadable as exc:
            unreadable += 1
            click.echo(f"error: {exc}", err=True)
            if as_json:
                print_json({"file": str(path), "codes": [], "error": str(exc)})
            continue
        except RuntimeError as exc:  # pyzbar without libzbar0: the message says what to do
            fail(str(exc))
        any_code = any_code or bool(codes)
        if as_json:
            print_json({"file": str(path),
                        "codes": [{"text": c.text, "symbology": c.symbology,
                                   "payment_code": code_filter.accepts(c.text)}
                                  for c in codes]})
        elif codes:
            for c in codes:
                flag = "" if code_filter.accepts(c.text) else "  (not a payment code)"
                click.echo(f"{path}: {c.symbology} {c.text}{flag}")
        else:
            click.echo(f"{path}: no code found")
    if unreadable == len(files):
        raise click.exceptions.Exit(2)
    if not any_code:
        raise click.exceptions.Exit(EXIT_FAILED)


@click.command("scan")
@click.option("--source", "spec", default=None, metavar="SPEC",
              help="camera:N, video:PATH, images:DIR, synthetic, evdev:/dev/input/eventN, "
                   "serial:/dev/ttyACM0[:baud] (default: scanner.source from the config).")
@click.option("--seconds", default=None, type=float, metavar="N",
              help="Stop after N seconds (default: until Ctrl+C, or the end of a video).")
@click.option("--show-codes", is_flag=True,
              help="Print codes in full (they are payment codes: only on a test counter).")
@click.pass_context
def scan_cmd(ctx: click.Context, spec: str | None, seconds: float | None,
             show_codes: bool) -> None:
    """Print codes live as the scanner reads them, with decode time and source status.

    Uses the configured decoder, code filter and debounce, so what it prints is exactly what
    the terminal would accept. Codes are masked (last 4 digits) unless --show-codes.
    """
    from hardware import CodeFilter, ScanEvent, SourceStatus, SpecError, open_source

    settings = load_settings_or_exit(ctx)
    sc = settings.scanner
    spec = spec or sc.source
    if spec.strip().lower() == "wedge":
        fail("the keyboard wedge is read by the terminal UI, not by `scan`: for a scanner in "
             "keyboard mode use evdev:/dev/input/eventN (see `ls /dev/input/by-id`)")
    try:
        source = open_source(
            spec, decoder=sc.decoder,
            code_filter=CodeFilter(settings.scan_alphabet, sc.code_min_length,
                                   sc.code_max_length),
            debounce_s=sc.debounce_s, rescue=sc.rescue)
    except SpecError as exc:
        fail(str(exc))
    except (ValueError, RuntimeError) as exc:
        fail(f"{exc}")
    count = 0
    lock = threading.Lock()
    done = threading.Event()

    def on_event(event: ScanEvent) -> None:
        nonlocal count
        text = event.text if show_codes else mask_code(event.text)
        decode = f"{event.decode_ms:.1f} ms" if event.decode_ms is not None else "-"
        stamp = vn_clock(event.time)
        with lock:
            count += 1
            click.echo(f"{stamp}  {event.symbology:<8} {text}  decode {decode}")

    def on_status(status: SourceStatus) -> None:
        numbers = []
        if status.fps is not None:
            numbers.append(f"{status.fps:.0f} fps")
        if status.decode_ms is not None:
            numbers.append(f"decode {status.decode_ms:.1f} ms")
        extra = f" ({', '.join(numbers)})" if numbers else ""
        if status.hint:
            extra += f": {status.hint}"
        click.echo(f"[{spec}] {status.state}: {status.detail}{extra}", err=True)
        if status.state == "stopped":
            done.set()

    click.echo(f"Scanning from {spec}; Ctrl+C to stop.", err=True)
    source.start(on_event, on_status)
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        while not done.is_set():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            done.wait(0.5 if left is None else min(0.5, left))
    except KeyboardInterrupt:
        pass
    finally:
        status = source.status()
        source.stop()
    numbers = []
    if status.fps is not None:
        numbers.append(f"capture {status.fps:.1f} fps")
    if status.decode_ms is not None:
        numbers.append(f"decode {status.decode_ms:.1f} ms per frame")
    click.echo(f"{count} code(s) read" + (f"; {', '.join(numbers)}" if numbers else ""),
               err=True)


def register(group: click.Group) -> None:
    group.add_command(scan_image_cmd)
    group.add_command(scan_cmd)
