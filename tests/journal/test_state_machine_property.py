"""Whatever sequence of answers arrives, in whatever order, the journal only moves forward."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pos_terminal.journal import (
    FINAL_STATES,
    PAYMENT_TRANSITIONS,
    IllegalTransition,
    Journal,
    PaymentState,
)

S = PaymentState
TARGETS = [S.PROCESSING, S.SUCCEEDED, S.FAILED, S.UNKNOWN, S.REFUNDED, S.SUBMITTING]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(TARGETS), max_size=12))
def test_random_answer_sequences_only_move_forward(targets: list[PaymentState]) -> None:
    with tempfile.TemporaryDirectory() as tmp, Journal.open(Path(tmp) / "j.sqlite3") as journal:
        journal.record_intent(app_trans_id="261121_p_1", amount=1_000, generation="v2",
                              payment_code="1234567890123456")
        state = S.SUBMITTING
        moves = 0
        for target in targets:
            allowed = target is state or target in PAYMENT_TRANSITIONS[state]
            try:
                view = journal.transition("261121_p_1", target, message=target.value)
            except IllegalTransition:
                assert not allowed
                assert journal.get("261121_p_1").state is state
                continue
            assert allowed
            if target is not state:
                moves += 1
            if state in FINAL_STATES and target is not state:
                assert (state, target) == (S.SUCCEEDED, S.REFUNDED)
            state = view.state
        events = journal.events("261121_p_1")
        assert len(events) == 1 + moves
        for event in events[1:]:
            assert S(event.to_state) in PAYMENT_TRANSITIONS[S(event.from_state or "new")]
