"""Issue 29: every answer means what ZaloPay's published table says, at every position.

Against the emulator (one per module), which answers any code on demand (its ``answer_code``
fault: the request is processed, a charge or a refund made, then answered with the code):
whenever the service charged, the payment never ends NOT PAID; whenever it refunded, the refund
never ends failed. And each published code that proves nothing was charged ends the payment
failed with no charge in the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from pos_terminal.checkout import PaymentState, RefundState
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.wallets.code_table import CodeClass, CodeRow, Operation
from pos_terminal.wallets.zalopay.code_table import LEGACY_PENDING, TABLES, classify
from tests.checkout.conftest import add_fault, charged, ledger, wallet_code
from tests.conftest import _pointed_at, reset_emulator

Op = Operation
#: Classes of answers a service that did charge (or refund) may truthfully give on the way.
UNDECIDING = (CodeClass.PROCESSING, CodeClass.NO_INFORMATION, CodeClass.MAY_HAVE_CHARGED,
              CodeClass.NOT_FOUND)
POSITIONS = (Op.QUICK_PAY, Op.STATUS, Op.REFUND, Op.REFUND_STATUS)
ENDPOINTS = {Op.QUICK_PAY: "quick_pay", Op.STATUS: "query", Op.REFUND: "refund",
             Op.REFUND_STATUS: "query_refund"}


@dataclass(frozen=True)
class Injected:
    """A code the emulator answers with, `count` times, at `position`."""

    generation: str
    position: Operation
    return_code: int
    sub_return_code: int | None
    count: int

    def rule(self) -> dict[str, Any]:
        rule: dict[str, Any] = {"endpoint": ENDPOINTS[self.position], "mode": "answer_code",
                                "return_code": self.return_code, "count": self.count}
        if self.sub_return_code is not None:
            rule["sub_return_code"] = self.sub_return_code
        return rule


def _undeciding_rows(generation: str, operation: Operation) -> list[CodeRow]:
    return sorted((r for r in TABLES[generation] if r.operation is operation
                   and r.cls in UNDECIDING),
                  key=lambda r: (r.code, r.sub_code or 0))


@st.composite
def injections(draw: st.DrawFn) -> Injected:
    generation = draw(st.sampled_from(("v2", "v001")))
    position = draw(st.sampled_from(POSITIONS))
    count = 1 if position in (Op.QUICK_PAY, Op.REFUND) else draw(st.integers(1, 3))
    published = _undeciding_rows(generation, position)
    if draw(st.booleans()) and published:
        row = draw(st.sampled_from(published))
        return Injected(generation, position, row.code, row.sub_code, count)
    # A code the table does not hold (v2: a failure's unknown detail, or an unknown code).
    if generation == "v2" and draw(st.booleans()):
        code, sub = 2, draw(st.integers(-100_000, 100_000))
    else:
        code, sub = draw(st.integers(-100_000, 100_000)), None
    if classify(generation, position, code, sub).published:
        code, sub = (2, -777_777) if generation == "v2" else (-777_777, None)
    return Injected(generation, position, code, sub, count)


def _settings(base_settings: Settings, emulator: Any, tmp: Any, generation: str) -> Settings:
    settings = _pointed_at(base_settings, emulator, tmp, generation)
    # A real grace period: a not-found says "never arrived" only once it has lasted.
    return settings.replace_section("checkout", not_found_grace_s=30.0, poll_deadline_s=20.0,
                                    poll_intervals_s=(0.05,))


@pytest.fixture(autouse=True)
def _quick_refunds(_emulator_server: Any) -> Any:
    """Refunds settle after 0.1 s (the property runs many)."""
    books = _emulator_server.control.books
    before = books.processing_s
    books.processing_s = 0.1
    yield
    books.processing_s = before


def run(injected: Injected, base_settings: Settings, emulator: Any, tmp: Any) -> None:
    """Pay (and refund) with `injected` in the way; the service's truth is paid (refunded)."""
    reset_emulator(emulator)
    settings = _settings(base_settings, emulator, tmp, injected.generation)
    if injected.position is Op.STATUS:
        add_fault(emulator, endpoint="quick_pay", mode="answer_code",
                  return_code=3 if injected.generation == "v2" else 10)
    if injected.position in (Op.QUICK_PAY, Op.STATUS):
        add_fault(emulator, **injected.rule())
    with open_checkout(settings) as co:
        view = co.pay(12_000, wallet_code(emulator, "an"))
        assert len(charged(emulator, view.app_trans_id)) == 1
        assert view.state is PaymentState.SUCCEEDED, (injected, view.state, str(view.message))
        if injected.position in (Op.QUICK_PAY, Op.STATUS):
            return
        if injected.position is Op.REFUND_STATUS:
            add_fault(emulator, endpoint="refund", mode="answer_code",
                      return_code=3 if injected.generation == "v2" else 2)
        add_fault(emulator, **injected.rule())
        refund = co.refund(view.app_trans_id, 12_000, "returned")
    refunds = [r for r in ledger(emulator)["refunds"] if r["app_trans_id"] == view.app_trans_id]
    assert [r["state"] for r in refunds] in (["succeeded"], ["processing"])
    assert refund.state is RefundState.REFUNDED, (injected, refund.state, str(refund.why))


@hsettings(max_examples=30, deadline=None, derandomize=True,
           suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(injected=injections())
# The rows, always among the examples.
@example(injected=Injected("v2", Op.STATUS, 2, -135, 2))
@example(injected=Injected("v2", Op.STATUS, 2, -32, 2))
@example(injected=Injected("v2", Op.STATUS, -405, None, 2))
@example(injected=Injected("v2", Op.STATUS, 406, None, 2))
@example(injected=Injected("v2", Op.QUICK_PAY, 2, -301, 1))
@example(injected=Injected("v2", Op.REFUND_STATUS, 2, -135, 2))
def test_a_charge_is_never_not_paid_and_a_refund_never_failed(
        injected: Injected, base_settings: Settings, _emulator_server: Any,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    run(injected, base_settings, _emulator_server, tmp_path_factory.mktemp("codes"))


# --- a test per published code ------------------------------------------------------------------


def _rows(classes: tuple[CodeClass, ...], operations: tuple[Operation, ...]) -> list[Any]:
    """Each published row (the legacy pending range 2..48: its ends and 10, the code its quick
    pay answers; tests/wallet/test_code_table.py reads every row)."""
    return [pytest.param(generation, row, id=f"{generation}-{row.operation}-{row.code}"
                         + (f"/{row.sub_code}" if row.sub_code is not None else ""))
            for generation in ("v2", "v001") for row in TABLES[generation]
            if row.cls in classes and row.operation in operations
            and not (generation == "v001" and row.code in LEGACY_PENDING
                     and row.code not in (2, 10, 48))]


def _each_code() -> list[Any]:
    """Each published code that decides nothing, once, at the first of its positions in
    POSITION_ORDER (every row at every position: tests/wallet/test_code_table.py, and the
    property above)."""
    chosen: dict[tuple[str, int, int | None], CodeRow] = {}
    for position in (Op.STATUS, Op.REFUND_STATUS, Op.QUICK_PAY, Op.REFUND):
        for generation in ("v2", "v001"):
            for row in _undeciding_rows(generation, position):
                if generation == "v001" and row.code in LEGACY_PENDING and row.code not in (
                        2, 10, 48):
                    continue
                chosen.setdefault((generation, row.code, row.sub_code), row)
    return [pytest.param(generation, row, id=f"{generation}-{row.operation}-{row.code}"
                         + (f"/{row.sub_code}" if row.sub_code is not None else ""))
            for (generation, _, _), row in chosen.items()]


@pytest.mark.parametrize(("generation", "row"), _each_code())
def test_each_published_code_that_decides_nothing(
        generation: str, row: CodeRow, base_settings: Settings, _emulator_server: Any,
        tmp_path: Any) -> None:
    count = 1 if row.operation in (Op.QUICK_PAY, Op.REFUND) else 2
    run(Injected(generation, row.operation, row.code, row.sub_code, count), base_settings,
        _emulator_server, tmp_path)


@pytest.mark.parametrize(("generation", "row"),
                         _rows((CodeClass.NOT_CHARGED,), (Op.QUICK_PAY,)))
def test_each_published_code_that_proves_nothing_was_charged(
        generation: str, row: CodeRow, base_settings: Settings, _emulator_server: Any,
        tmp_path: Any) -> None:
    # The service refuses the quick pay with the code (nothing committed): it ends failed.
    emulator = reset_emulator(_emulator_server)
    settings = _settings(base_settings, emulator, tmp_path, generation)
    code = row.sub_code if row.sub_code is not None else row.code
    add_fault(emulator, endpoint="quick_pay", mode="refuse", return_code=code)
    with open_checkout(settings) as co:
        view = co.pay(12_000, wallet_code(emulator, "an"))
    assert view.state is PaymentState.FAILED, str(view.message)
    assert charged(emulator, view.app_trans_id) == []


@pytest.mark.parametrize(("generation", "row"),
                         _rows((CodeClass.NOT_CHARGED,), (Op.STATUS,)))
def test_each_published_failure_of_a_status_answer_ends_it_failed(
        generation: str, row: CodeRow, base_settings: Settings, _emulator_server: Any,
        tmp_path: Any) -> None:
    # The table's word is final: the status says the order failed, the payment is failed.
    emulator = reset_emulator(_emulator_server)
    settings = _settings(base_settings, emulator, tmp_path, generation)
    add_fault(emulator, endpoint="quick_pay", mode="drop")  # not sent: nothing charged
    add_fault(emulator, endpoint="query", mode="answer_code", return_code=row.code,
              **({"sub_return_code": row.sub_code} if row.sub_code is not None else {}))
    with open_checkout(settings) as co:
        view = co.pay(12_000, wallet_code(emulator, "an"))
    assert view.state is PaymentState.FAILED, str(view.message)
    assert charged(emulator, view.app_trans_id) == []
