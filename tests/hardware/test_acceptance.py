"""The code filter, the two-frame rule for 1-D codes and the debounce, on explicit times."""

from __future__ import annotations

from hardware import CodeFilter, Decoded, ReadAcceptor
from tests.hardware.helpers import CODE_A, CODE_B

QR_A = Decoded(CODE_A, "qr")
BAR_A = Decoded(CODE_A, "code128")
BAR_B = Decoded(CODE_B, "code128")


def test_qr_is_accepted_on_its_first_frame() -> None:
    acceptor = ReadAcceptor()
    assert acceptor.offer([QR_A], now=10.0, frame=1) == [QR_A]


def test_code128_needs_the_same_text_on_a_second_frame() -> None:
    acceptor = ReadAcceptor()
    assert acceptor.offer([BAR_A], now=10.0, frame=1) == []
    assert acceptor.offer([BAR_A], now=10.1, frame=2) == [BAR_A]


def test_code128_read_twice_in_one_frame_is_still_one_frame() -> None:
    acceptor = ReadAcceptor()
    assert acceptor.offer([BAR_A, BAR_A], now=10.0, frame=1) == []
    assert acceptor.offer([BAR_A], now=10.0, frame=1) == []


def test_a_one_frame_misread_never_becomes_an_event() -> None:
    acceptor = ReadAcceptor()
    misread = Decoded(CODE_A[:-1] + "7", "code128")
    assert acceptor.offer([misread], now=10.0, frame=1) == []
    assert acceptor.offer([BAR_A], now=10.1, frame=2) == []
    assert acceptor.offer([BAR_A], now=10.2, frame=3) == [BAR_A]


def test_code128_confirmation_expires_after_the_window() -> None:
    acceptor = ReadAcceptor(confirm_window_s=1.0)
    assert acceptor.offer([BAR_A], now=10.0, frame=1) == []
    assert acceptor.offer([BAR_A], now=11.5, frame=40) == []   # too late: starts over
    assert acceptor.offer([BAR_A], now=11.6, frame=41) == [BAR_A]


def test_scanner_lines_are_already_confirmed() -> None:
    acceptor = ReadAcceptor()
    line = Decoded(CODE_A, "unknown")
    assert acceptor.offer([line], now=1.0, confirmed=True) == [line]


def test_other_barcodes_are_ignored_and_the_code_next_to_them_is_read() -> None:
    acceptor = ReadAcceptor()
    ean = Decoded("8935049500131", "ean13")
    url = Decoded("https://shop.example/p/1", "qr")
    assert acceptor.offer([ean, url, QR_A], now=1.0, frame=1) == [QR_A]


def test_custom_filter_is_applied() -> None:
    acceptor = ReadAcceptor(CodeFilter(alphabet="0123456789", min_length=20, max_length=20))
    assert acceptor.offer([QR_A], now=1.0, frame=1) == []   # 18 digits


def test_same_text_while_it_keeps_being_seen_is_one_event() -> None:
    acceptor = ReadAcceptor(debounce_s=3.0)
    emitted = []
    for frame, now in enumerate([0.0, 1.0, 2.5, 4.0, 6.9, 9.5]):  # gaps all < 3 s
        emitted += acceptor.offer([QR_A], now=now, frame=frame)
    assert emitted == [QR_A]
    # taken away for longer than the debounce, shown again: a new scan
    assert acceptor.offer([QR_A], now=13.0, frame=50) == [QR_A]


def test_qr_and_code128_of_the_same_code_are_one_event() -> None:
    acceptor = ReadAcceptor()
    assert acceptor.offer([QR_A, BAR_A], now=1.0, frame=1) == [QR_A]
    assert acceptor.offer([QR_A, BAR_A], now=1.1, frame=2) == []


def test_a_different_code_is_not_debounced_by_the_previous_one() -> None:
    acceptor = ReadAcceptor()
    assert acceptor.offer([BAR_A], now=1.0, frame=1) == []
    assert acceptor.offer([BAR_A], now=1.1, frame=2) == [BAR_A]
    assert acceptor.offer([BAR_B], now=1.2, frame=3) == []
    assert acceptor.offer([BAR_B], now=1.3, frame=4) == [BAR_B]


def test_reset_pending_forgets_half_confirmed_reads() -> None:
    acceptor = ReadAcceptor()
    assert acceptor.offer([BAR_A], now=1.0, frame=1) == []
    acceptor.reset_pending()
    assert acceptor.offer([BAR_A], now=1.1, frame=2) == []
    assert acceptor.offer([BAR_A], now=1.2, frame=3) == [BAR_A]
