"""The journal's cashier, payment, move and Z report refusals are reasons, not English sentences
(issue 22 item 1): each renders in Vietnamese with no English word of its sentence left, and the
sign-in and supervisor screens read no shell command where the CLI names one."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pos_terminal.base.errors import PosError
from pos_terminal.base.reasons import render
from pos_terminal.journal import Journal, PaymentEvent, PaymentState
from pos_terminal.journal.cashiers import Cashiers
from pos_terminal.sentences import front_end, use_front_end

PAYMENT = "261121_t1_a"
E = PaymentEvent


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal.open(tmp_path / "j.sqlite3")
    j.record_intent(app_trans_id=PAYMENT, amount=50_000, generation="v2", description="tea",
                    payment_code="123456789012345678", payload_hash="ab" * 32,
                    message="sending")
    j.transition(PAYMENT, PaymentState.SUCCEEDED, message="paid", zp_trans_id="9")
    book = Cashiers(j)
    book.add("an", "An", "2468")
    book.add("gone", "Binh", "1357")
    book.remove("gone")
    yield j
    j.close()


@pytest.fixture
def on_screen() -> Iterator[None]:
    before = front_end()
    use_front_end("screen")
    yield
    use_front_end(before)


REFUSALS: dict[str, Callable[[Journal], object]] = {
    "cashier.bad_id": lambda j: Cashiers(j).add("an id", "An", "2468"),
    "cashier.unknown": lambda j: Cashiers(j).get("nobody"),
    "cashier.id_taken": lambda j: Cashiers(j).add("gone", "Binh", "1357"),
    "cashier.not_active": lambda j: Cashiers(j).set_pin("gone", "1111"),
    "shift.cashier_removed": lambda j: Cashiers(j).open_shift("gone"),
    "shift.none_open": lambda j: Cashiers(j).close_shift("an"),
    "payment.unknown": lambda j: j.get("261121_t1_zz"),
    "refund.unknown": lambda j: j.get_refund("261121_t1_zz_r"),
    "report.z_unknown": lambda j: j.z_report(7),
    "payment.not_overridable": lambda j: j.apply(PAYMENT, E.OVERRIDE_FAILED, message="x",
                                                 reason="r", who="w"),
    "payment.guard": lambda j: j.apply(PAYMENT, E.LATE_REVIEW, message="x"),
    "payment.no_move": lambda j: j.apply(PAYMENT, E.DECLINED, message="x"),
    "payment.by_own_write": lambda j: j.apply(PAYMENT, E.INTENT, message="x"),
}


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_each_refusal_reads_in_vietnamese_with_no_english_left(journal: Journal, code: str,
                                                               on_screen: None) -> None:
    with pytest.raises(PosError) as refused:
        REFUSALS[code](journal)
    why = refused.value.why
    assert why.code == code
    english, vietnamese = render(why, "en"), render(why, "vi")
    # the ids and the event's name are the journal's own words, shown as they are
    own = {w for name, value in why.params.items() if name != "state" and isinstance(value, str)
           for w in _words(value)}
    left = (_words(english) - own) & _words(vietnamese)
    assert not left, f"{code}: {vietnamese!r} keeps {sorted(left)}"
    assert english != vietnamese


def test_the_screen_names_no_command_where_the_cli_does(journal: Journal) -> None:
    with pytest.raises(PosError) as unknown:
        Cashiers(journal).get("nobody")
    before = front_end()
    try:
        use_front_end("commands")
        assert unknown.value.message == ("There is no cashier 'nobody' in this journal; see "
                                         "`pos-terminal cashier list`.")
        use_front_end("screen")
        assert "pos-terminal" not in unknown.value.message
        assert "pos-terminal" not in render(unknown.value.why, "vi")
    finally:
        use_front_end(before)


def test_the_english_reads_as_before(journal: Journal) -> None:
    with pytest.raises(PosError) as taken:
        Cashiers(journal).add("gone", "Binh", "1357")
    assert render(taken.value.why, "en") == (
        "The cashier id 'gone' is already taken (ids are never reused, even after a removal); "
        "pick another.")
    with pytest.raises(PosError) as overridden:
        journal.apply(PAYMENT, E.OVERRIDE_FAILED, message="x", reason="r", who="w")
    assert render(overridden.value.why, "en") == (
        f"Payment {PAYMENT} is already succeeded; only an unresolved payment (submitting, "
        "processing, unknown) or one flagged for review can be overridden. Nothing changed.")
    assert render(overridden.value.why, "vi") == (
        f"Giao dịch {PAYMENT} đã ở trạng thái thành công; chỉ giao dịch chưa có kết quả (đang "
        "gửi, đang xử lý, chưa rõ) hoặc đang chờ kiểm tra mới được ghi nhận tay. Không có gì "
        "thay đổi.")
