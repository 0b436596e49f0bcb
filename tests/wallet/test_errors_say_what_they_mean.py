"""Issue 22 item 6: "certainly not sent" is no kind of "outcome unknown", and every error keeps
its machine fields (a stable code, and its own fields) beside the sentence."""

from __future__ import annotations

import socket

from pos_terminal.base.errors import ExitCode, PosError
from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import CodeRefused, InvalidPayment, PaymentState
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.wallets.errors import (
    FieldError,
    MismatchedAnswer,
    NoAnswer,
    NotSent,
    UnreadableAnswer,
    WalletError,
)
from pos_terminal.wallets.zalopay.adapter import ZaloPayWallet
from pos_terminal.wallets.zalopay.client import WalletClient

S = PaymentState


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_not_sent_and_no_answer_are_disjoint() -> None:
    assert not issubclass(NotSent, NoAnswer) and not issubclass(NoAnswer, NotSent)
    for unknown in (NoAnswer, UnreadableAnswer, MismatchedAnswer):
        assert not issubclass(NotSent, unknown) and not issubclass(unknown, NotSent)
    assert NotSent("x", "connection refused").exit_code == ExitCode.NOT_PAID
    assert NoAnswer("x").exit_code == ExitCode.UNKNOWN


def test_every_error_keeps_its_code_beside_the_sentence() -> None:
    not_sent = NotSent("could not connect (connection refused)", "connection refused")
    assert (not_sent.code, not_sent.cause) == ("wallet.not_sent", "connection refused")
    assert not_sent.message == "could not connect (connection refused)"
    assert NoAnswer("timed out").code == "wallet.no_answer"
    assert UnreadableAnswer("HTML", 502).code == "wallet.unreadable_answer"
    assert FieldError("amount", "too big").code == "wallet.field_refused"
    refused = CodeRefused(Reason.of("refused.code_charged", code="****1234",
                                    app_trans_id="261125_t_1"), "charged", "261125_t_1")
    assert (refused.code, refused.reason, refused.app_trans_id) == (
        "refused.code_charged", "charged", "261125_t_1")
    assert refused.message.startswith("This payment code (****1234) was already charged")
    bad = InvalidPayment("amount", Reason.of("amount.too_small", amount=5, minimum=1000))
    assert (bad.code, bad.field, bad.why.params["minimum"]) == ("amount.too_small", "amount",
                                                                1000)
    assert bad.message == "The amount 5 ₫ is too small: the minimum is 1.000 ₫."
    assert str(bad) == bad.message
    assert PosError("plain words").code == "error"


def test_a_status_query_that_cannot_connect_leaves_the_payment_open(settings: Settings) -> None:
    """The query was certainly not sent: that says nothing about the charge (never FAILED),
    whatever order the `except` clauses come in."""
    offline = settings.replace_service(base_url=f"http://127.0.0.1:{_closed_port()}",
                                       connect_timeout_s=0.5)
    with WalletClient(offline.service, retry_wait_s=0.01) as client, \
            open_checkout(offline, ZaloPayWallet(client, terminal_id="t")) as co:
        view = co.journal.record_intent(app_trans_id="261125_t_nq1", amount=5000,
                                        generation="v2", message=Reason.of("sending"))
        try:
            client.query_status(view.app_trans_id)
        except WalletError as exc:
            assert isinstance(exc, NotSent) and not isinstance(exc, NoAnswer)
        after = co.query_once(view)
    assert after.state is S.UNKNOWN and not after.is_final
    assert after.why.code == "unknown.no_answer"
