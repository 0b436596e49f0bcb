"""Issue 22 item 2: a payment can never be put into a refund's state, nor moved by a refund's
event (and the other way round), already at the type level: mypy, as `make lint` runs it,
refuses each such line of a real program against the journal's API, and accepts the right ones.
"""

from __future__ import annotations

import re
from pathlib import Path

from mypy import api

PROGRAM = '''
from pos_terminal.journal import Journal, PaymentEvent, PaymentState, RefundEvent, RefundState
from pos_terminal.journal.states import Move, PaymentMove, RefundMove, move_for

S, E, RS, RE = PaymentState, PaymentEvent, RefundState, RefundEvent


def moves(journal: Journal) -> None:
    payment = journal.get("p")
    refund = journal.get_refund("r")
    journal.apply(payment, RefundEvent.DONE, message="x")  # wrong: refund_event_on_payment
    journal.apply("p", RefundEvent.FAILED, message="x")  # wrong: refund_event_on_payment_id
    journal.apply(refund, PaymentEvent.PAID, message="x")  # wrong: payment_event_on_refund
    journal.transition("p", RefundState.REFUNDING, message="x")  # wrong: payment_to_refunding
    journal.refund_transition("r", PaymentState.REFUNDED, message="x")  # wrong: refund_to_pay
    a: PaymentMove = Move(S.SUCCEEDED, RE.DONE, S.REFUNDED)  # wrong: mixed_move
    b: RefundMove = Move(RS.REFUNDING, RE.DONE, S.REFUNDED)  # wrong: mixed_states
    move_for(PaymentState.SUCCEEDED, RefundEvent.DONE)  # wrong: lookup_across
    if refund.state is PaymentState.FAILED:  # wrong: refund_state_as_payment_state
        pass
    journal.apply(payment, PaymentEvent.PAID, message="x")  # right
    journal.apply(refund, RefundEvent.DONE, message="x")  # right
    journal.refund_transition("r", RefundState.REFUNDED, message="x")  # right
    c: RefundMove = Move(RefundState.REFUNDING, RefundEvent.DONE, RefundState.REFUNDED)  # right
    if refund.state is RefundState.FAILED and payment.state is PaymentState.FAILED:  # right
        pass
'''


def test_mypy_refuses_every_mix_of_payment_and_refund_states_and_events(tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    program.write_text(PROGRAM, encoding="utf-8")
    out, err, _status = api.run(["--strict", "--no-error-summary", "--follow-imports=silent",
                                 "--cache-dir", str(tmp_path / "cache"), str(program)])
    assert not err
    lines = PROGRAM.splitlines()
    refused = {int(n) for n in re.findall(r"program\.py:(\d+): error:", out)}
    wrong = {n for n, line in enumerate(lines, 1) if "# wrong:" in line}
    right = {n for n, line in enumerate(lines, 1) if "# right" in line}
    assert len(wrong) == 9 and len(right) == 5
    assert wrong <= refused, [lines[n - 1] for n in sorted(wrong - refused)]
    assert not refused & right, out
    assert refused - wrong == set(), out  # a: and c: unused: not an error in mypy
