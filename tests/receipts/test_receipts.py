"""Receipts: exact text of a real payment, ESC/POS bytes from python-escpos's Dummy printer and
from a real TCP listener ("port 9100 style"), reprint marks journaled, refusals."""

from __future__ import annotations

import contextlib
import socket
import threading
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hardware.printers import PrinterError, send
from pos_terminal.base.clock import format_datetime
from pos_terminal.cli import main
from pos_terminal.config import Settings, load_settings
from pos_terminal.counter import open_checkout
from pos_terminal.journal import Journal
from pos_terminal.receipts import (
    ENGLISH,
    VIETNAMESE,
    NoReceipt,
    Shop,
    encode_cp1258,
    payment_receipt,
    to_escpos,
)
from pos_terminal.receipts.content import copy_of
from pos_terminal.receipts.service import build_receipt, print_receipt
from pos_terminal.wallets.zalopay.messages import Item
from tests.checkout.conftest import wallet_code, write_config

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
INIT, CUT, RASTER = b"\x1b@", b"\x1dV\x00", b"\x1dv0"
SHOP = ('[shop]\nname = "Cà phê Sữa Đá"\naddress = "12 Lê Lợi, Quận 1, TP.HCM"\n'
        'tax_id = "0312345678"\n')


class Listener:
    """A one-connection-at-a-time TCP printer on a free loopback port: keeps what it got.

    It listens until close(), however long the test takes to print (a loaded machine): an
    accept() that gave up after a while would leave the kernel accepting connections nobody
    reads, and a job "printed" that the test never sees."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.jobs: list[bytes] = []
        self._got = threading.Condition()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed
            with conn:
                chunks = []
                while data := conn.recv(65536):  # a printer's client closes after its job
                    chunks.append(data)
            with self._got:
                self.jobs.append(b"".join(chunks))
                self._got.notify_all()

    def wait_jobs(self, count: int, bound_s: float = 60.0) -> list[bytes]:
        """The jobs once `count` have come (or all there are after `bound_s`, an upper bound
        for a loaded machine)."""
        with self._got:
            self._got.wait_for(lambda: len(self.jobs) >= count, timeout=bound_s)
            return list(self.jobs)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the accept() under way
        self.sock.close()
        self.thread.join(timeout=30)


@pytest.fixture
def printer() -> Iterator[Listener]:
    listener = Listener()
    yield listener
    listener.close()


def _paid(settings: Settings, emulator: Any) -> str:
    with open_checkout(settings) as co:
        view = co.pay(40_000, wallet_code(emulator, "an"), description="Table 4", items=[
            Item("c1", "Cà phê sữa đá", 15_000, 2), Item("b1", "Bánh mì", 10_000, 1)])
    assert view.state.value == "succeeded"
    return view.app_trans_id


def _config(settings: Settings, tmp_path: Path, extra: str) -> Path:
    path = write_config(settings, tmp_path / "pos.toml")
    path.write_text(path.read_text("utf-8") + "\n" + extra, encoding="utf-8")
    return path


def _run(config: Path, *args: str) -> Any:
    return CliRunner().invoke(main, [*args, "--config", str(config)], catch_exceptions=False)


def test_text_receipt_exact_lines(settings: Settings, emulator: Any, tmp_path: Path) -> None:
    app_trans_id = _paid(settings, emulator)
    config = _config(settings, tmp_path, SHOP + "[printer]\nwidth = 32\n")
    result = _run(config, "receipt", app_trans_id)
    assert result.exit_code == 0, result.stderr
    with Journal.open(settings.terminal.journal) as journal:
        view = journal.get(app_trans_id)
    assert view.zp_trans_id
    assert result.stdout.splitlines() == [
        "Cà phê Sữa Đá".center(32).rstrip(),
        "12 Lê Lợi, Quận 1, TP.HCM".center(32).rstrip(),
        "Tax ID: 0312345678".center(32).rstrip(),
        "-" * 32,
        "RECEIPT".center(32).rstrip(),
        "Counter" + "counter1".rjust(25),
        "Cashier" + "-".rjust(25),
        "Time" + format_datetime(view.created_ms).rjust(28),
        "-" * 32,
        "Cà phê sữa đá",
        "  2 x 15.000 ₫" + "30.000 ₫".rjust(18),
        "Bánh mì",
        "  1 x 10.000 ₫" + "10.000 ₫".rjust(18),
        "-" * 32,
        "TOTAL" + "40.000 ₫".rjust(27),
        "Method" + "Wallet quick pay".rjust(26),
        "Wallet" + "ZaloPay".rjust(26),  # its wallet provider (issue 31)
        "Wallet txn" + view.zp_trans_id.rjust(22),
        "Order",
        app_trans_id.rjust(32),
        "-" * 32,
        "Thank you!".center(32).rstrip(),
    ]


def test_vietnamese_labels(settings: Settings, emulator: Any) -> None:
    app_trans_id = _paid(settings, emulator)
    with Journal.open(settings.terminal.journal) as journal:
        receipt = payment_receipt(journal.get(app_trans_id), shop=Shop("Quán Ăn"),
                                  terminal_id="Q1", cashier=None, width=42, reprint=True,
                                  labels=VIETNAMESE)
    assert receipt.lines[:4] == ("Quán Ăn".center(42).rstrip(), "-" * 42,
                                 "PHIẾU THANH TOÁN".center(42).rstrip(),
                                 "*** IN LẠI ***".center(42).rstrip())
    assert "TỔNG CỘNG" + "40.000 ₫".rjust(42 - len("TỔNG CỘNG")) in receipt.lines


def test_escpos_from_dummy_raster_without_vietnamese_codepage(
        settings: Settings, emulator: Any) -> None:
    app_trans_id = _paid(settings, emulator)
    with Journal.open(settings.terminal.journal) as journal:
        receipt = build_receipt(journal, settings, app_trans_id)
    data = to_escpos(receipt, codepage="", font_path=FONT, width=48)
    assert data.startswith(INIT)
    assert data.endswith(CUT)
    # GS v 0 m xL xH yL yH: 576 dots = 72 bytes across, one image for the whole receipt
    at = data.index(RASTER)
    assert data[at + 4:at + 6] == (72).to_bytes(2, "little")
    assert data.count(RASTER) == 1
    assert "phê".encode() not in data and encode_cp1258("phê") not in data  # not as text


def test_escpos_cp1258_text(settings: Settings, emulator: Any) -> None:
    app_trans_id = _paid(settings, emulator)
    with Journal.open(settings.terminal.journal) as journal:
        receipt = build_receipt(journal, settings, app_trans_id, labels=VIETNAMESE)
    data = to_escpos(receipt, codepage="CP1258", font_path=Path("/nonexistent"), width=42)
    assert data.startswith(INIT + b"\x1bt\x34")  # ESC t 52: CP1258 in the default profile
    assert data.endswith(CUT)
    assert RASTER not in data
    assert "40.000 ₫".encode("cp1258") in data
    assert encode_cp1258("Cà phê sữa đá") in data
    assert encode_cp1258("TỔNG CỘNG") in data
    assert app_trans_id.encode() in data
    text = data[5:].decode("cp1258")
    assert unicodedata.normalize("NFC", text).startswith(receipt.text)


def test_missing_font_is_a_clear_error(settings: Settings, emulator: Any,
                                       tmp_path: Path) -> None:
    app_trans_id = _paid(settings, emulator)
    config = _config(settings, tmp_path, f'[printer]\nfont = "{tmp_path}/none.ttf"\n')
    result = _run(config, "receipt", app_trans_id, "--format", "escpos", "--output",
                  str(tmp_path / "r.bin"))
    assert result.exit_code == 2
    assert "none.ttf is missing" in result.stderr
    assert "fonts-dejavu-core" in result.stderr
    assert not (tmp_path / "r.bin").exists()


def test_print_over_tcp_then_reprint(settings: Settings, emulator: Any, tmp_path: Path,
                                     printer: Listener) -> None:
    app_trans_id = _paid(settings, emulator)
    config = _config(settings, tmp_path,
                     f'[printer]\ntarget = "tcp:127.0.0.1:{printer.port}"\ncodepage = "CP1258"\n')
    first = _run(config, "receipt", app_trans_id, "--print")
    assert first.exit_code == 0, first.stderr
    second = _run(config, "receipt", app_trans_id, "--print", "--lang", "vi")
    assert second.exit_code == 0, second.stderr
    assert "(reprint)" in second.stderr and "(reprint)" not in first.stderr
    original, reprint = printer.wait_jobs(2)
    for job in (original, reprint):
        assert job.startswith(INIT) and job.endswith(CUT)
        assert "40.000 ₫".encode("cp1258") in job
        assert app_trans_id.encode() in job
    assert b"REPRINT" not in original
    assert encode_cp1258("*** IN LẠI ***") in reprint
    with Journal.open(settings.terminal.journal) as journal:
        assert journal.receipt_prints("payment", app_trans_id) == 2
        zp = journal.get(app_trans_id).zp_trans_id
    assert zp is not None and zp.encode() in original
    # the text view now carries the reprint mark too
    assert "*** REPRINT ***" in _run(config, "receipt", app_trans_id).stdout


def test_escpos_output_file_matches_dummy(settings: Settings, emulator: Any,
                                          tmp_path: Path) -> None:
    app_trans_id = _paid(settings, emulator)
    config = _config(settings, tmp_path, "")
    out = tmp_path / "r.bin"
    result = _run(config, "receipt", app_trans_id, "--format", "escpos", "--output", str(out))
    assert result.exit_code == 0, result.stderr
    loaded = load_settings(config, env={})
    with Journal.open(settings.terminal.journal) as journal:
        expected = to_escpos(build_receipt(journal, loaded, app_trans_id),
                             font_path=loaded.printer.font, width=loaded.printer.width)
        assert journal.receipt_prints("payment", app_trans_id) == 0  # a file is not a print
    assert out.read_bytes() == expected


def test_unreachable_printer_names_target(settings: Settings, emulator: Any,
                                          tmp_path: Path) -> None:
    app_trans_id = _paid(settings, emulator)
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = _config(settings, tmp_path, f'[printer]\ntarget = "tcp:127.0.0.1:{port}"\n')
    result = _run(config, "receipt", app_trans_id, "--print")
    assert result.exit_code == 4
    assert f"cannot reach the network printer 127.0.0.1:{port}" in result.stderr
    assert "check that the printer is on" in result.stderr
    assert "Traceback" not in result.stderr
    # The printer's problem in the language asked (issue 21: no English in Vietnamese).
    vietnamese = _run(config, "receipt", app_trans_id, "--print", "--language", "vi")
    assert vietnamese.exit_code == 4
    assert f"không kết nối được máy in mạng 127.0.0.1:{port} (" in vietnamese.stderr
    assert "hãy kiểm tra máy in đã bật" in vietnamese.stderr
    assert "cannot reach" not in vietnamese.stderr
    with Journal.open(settings.terminal.journal) as journal:
        assert journal.receipt_prints("payment", app_trans_id) == 0
    with pytest.raises(PrinterError, match="file /nonexistent/dir/x"):
        send("file:/nonexistent/dir/x", b"\x1b@")


def test_unknown_and_unsettled_get_no_receipt(settings: Settings, emulator: Any,
                                              tmp_path: Path) -> None:
    config = _config(settings, tmp_path, "")
    unknown = _run(config, "receipt", "261123_nope")
    assert unknown.exit_code == 2
    assert "No payment (app_trans_id) or refund (m_refund_id) '261123_nope'" in unknown.stderr
    with open_checkout(settings) as co:
        failed = co.pay(5_000, wallet_code(emulator, "dung"))
    assert failed.state.value == "failed"
    result = _run(config, "receipt", failed.app_trans_id)
    assert result.exit_code == 2
    assert "is failed: a receipt is only for a paid payment" in result.stderr
    with Journal.open(settings.terminal.journal) as journal, pytest.raises(NoReceipt):
        payment_receipt(journal.get(failed.app_trans_id), shop=Shop(), terminal_id="t",
                        cashier=None, labels=ENGLISH)


def test_refund_receipt(settings: Settings, emulator: Any, tmp_path: Path) -> None:
    app_trans_id = _paid(settings, emulator)
    with open_checkout(settings) as co:
        refund = co.refund(app_trans_id, 10_000, "Bánh mì returned")
    assert refund.state.value == "refunded"
    config = _config(settings, tmp_path, "[printer]\nwidth = 48\n")
    result = _run(config, "receipt", refund.m_refund_id)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "REFUND RECEIPT".center(48).rstrip() in lines
    assert "Refund" + refund.m_refund_id.rjust(42) in lines
    assert "Payment" + app_trans_id.rjust(41) in lines
    # the slip's total is what was refunded; the sale's amount is labelled as the original
    assert "Original sale" + "40.000 ₫".rjust(35) in lines
    body = lines[:lines.index("Customer's signature") - 1]  # the signature lines follow
    assert body[-2] == "TOTAL REFUNDED" + "10.000 ₫".rjust(34)


def test_escpos_is_never_written_to_a_terminal(settings: Settings, emulator: Any,
                                               tmp_path: Path) -> None:
    """Binary to a real terminal (a pty) is refused; to a pipe it is written as is."""
    import os
    import pty
    import subprocess

    from tests.processes import child_env, cli_command

    app_trans_id = _paid(settings, emulator)
    config = _config(settings, tmp_path, "")
    argv = cli_command("receipt", app_trans_id, "--format", "escpos", "--config", str(config))
    main_fd, follower = pty.openpty()
    try:
        done = subprocess.run(argv, stdout=follower, stderr=subprocess.PIPE, env=child_env(),
                              timeout=60, check=False)
    finally:
        os.close(follower)
        os.close(main_fd)
    assert done.returncode == 2
    assert b"the ESC/POS format is binary: give --output FILE" in done.stderr
    piped = subprocess.run(argv, capture_output=True, env=child_env(), timeout=60, check=False)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith(INIT) and piped.stdout.endswith(CUT)


def test_two_copies_and_a_signed_refund_slip(settings: Settings, emulator: Any,
                                             tmp_path: Path) -> None:
    """[printer] copies = 2: the customer's copy and the shop's, each marked and cut; a refund
    slip carries the customer's and the cashier's signature lines (issue 21, item 15)."""
    app_trans_id = _paid(settings, emulator)
    with open_checkout(settings) as co:
        refund = co.refund(app_trans_id, 10_000, "Bánh mì returned")
    target = tmp_path / "printer.bin"
    two = settings.replace_section("printer", copies=2, target=f"file:{target}")
    with open_checkout(two) as co:
        journal = co.journal
        print_receipt(journal, two, app_trans_id, labels=VIETNAMESE)
        assert target.read_bytes().count(CUT) == 2
        first, second, _rest = target.read_bytes().split(CUT)
        assert first != second  # drawn with their own copy line
        receipt = build_receipt(journal, two, app_trans_id, labels=VIETNAMESE)
        marked = [copy_of(receipt, label, 42).lines[0].strip() for label in VIETNAMESE.copies]
        assert marked == ["Liên 1: giao khách hàng", "Liên 2: lưu tại cửa hàng"]
        slip = build_receipt(journal, two, refund.m_refund_id, labels=VIETNAMESE)
    assert "Chữ ký khách hàng" in slip.lines and "Chữ ký thu ngân" in slip.lines
    assert slip.lines[-1] == "_" * 30


def test_a_late_charge_and_money_returned_say_so_on_the_receipt(
        settings: Settings, emulator: Any) -> None:
    """The same words as every other door: a charge after the sale was given up is not a plain
    sale's receipt, and money returned says where it went."""
    from dataclasses import replace

    from pos_terminal.journal import PaymentState

    app_trans_id = _paid(settings, emulator)
    with Journal.open(settings.terminal.journal) as journal:
        paid = journal.get(app_trans_id)
    for labels, late, back in ((ENGLISH, "CHARGED LATE: NOT FOR THIS SALE",
                                "RETURNED TO THE CUSTOMER"),
                               (VIETNAMESE, "THU MUỘN: KHÔNG THUỘC ĐƠN NÀY",
                                "ĐÃ HOÀN TIỀN CHO KHÁCH")):
        def lines(view: Any, labels: Any = labels) -> list[str]:
            return [line.strip() for line in payment_receipt(
                view, shop=Shop("Quán Ăn"), terminal_id="Q1", cashier=None, width=42,
                labels=labels).lines]

        assert late not in lines(paid) and back not in lines(paid)
        charged_late = replace(paid, abandoned=True)
        assert late in lines(charged_late) and back not in lines(charged_late)
        returned = replace(charged_late, state=PaymentState.REFUNDED,
                           refunded_amount=paid.amount)
        assert late in lines(returned) and back in lines(returned)
