"""The main screens in fixed states (fixed clock, ids, amounts), for the snapshot tests and for
the screenshots in docs/ (`scripts/screenshots.py`)."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from pos_terminal.base import i18n
from pos_terminal.base.i18n import _
from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import PaymentState, PaymentView
from pos_terminal.config import Settings
from pos_terminal.counter import Counter, open_checkout
from pos_terminal.journal import Journal
from pos_terminal.journal.cashiers import Cashier
from pos_terminal.tui.app import PosApp
from pos_terminal.tui.payment import PaymentRun
from pos_terminal.tui.printing import PrintOutcome
from pos_terminal.tui.result_summary import ResultSummary
from pos_terminal.tui.sales import Sale
from pos_terminal.tui.screens.banks import BanksScreen
from pos_terminal.tui.screens.history import HistoryScreen, PaymentDetailScreen
from pos_terminal.tui.screens.pay import PayScreen
from pos_terminal.tui.screens.progress import ProgressScreen
from pos_terminal.tui.screens.reports import ReportsScreen
from pos_terminal.tui.screens.result import ResultScreen
from pos_terminal.tui.screens.sale import SaleScreen
from pos_terminal.tui.screens.show_qr import ShowQrScreen
from pos_terminal.tui.screens.signin import SignInScreen
from pos_terminal.tui.screens.supervisor import SupervisorDialog
from pos_terminal.tui.widgets.amount import AmountField
from tests.tui.helpers import wait_for_footer, wait_for_tables

# 2026-11-21 09:15:00 in Vietnam (02:15 UTC).
T0 = 1_795_227_300_000
DAY = "2026-11-21"
S = PaymentState


class FixedClock:
    def __init__(self) -> None:
        self.ms = T0

    def __call__(self) -> int:
        return self.ms


# What the engine would have journaled, in the language of the picture.
TEXTS = {
    "en": {
        "sending": "Sending the payment.",
        "paid": "Paid.",
        "declined": "The customer's wallet balance is too low: nothing was charged. Ask for "
                    "another payment method.",
        "confirming": "The customer is confirming on the phone.",
        "declined_long": "The customer's wallet balance is too low: nothing was charged. Ask the "
                         "customer to top up or pay another way.",
        "qr": "Customer: scan with the wallet app and pay. Esc stops watching.",
    },
    "vi": {
        "sending": "Đang gửi giao dịch.",
        "paid": "Đã thanh toán.",
        "declined": "Số dư ví của khách không đủ: chưa trừ tiền. Đề nghị khách thanh toán bằng "
                    "hình thức khác.",
        "confirming": "Khách đang xác nhận trên điện thoại.",
        "declined_long": "Số dư ví của khách không đủ: chưa trừ tiền. Nhờ khách nạp thêm tiền "
                         "vào ví hoặc thanh toán bằng hình thức khác.",
        "qr": "Khách: quét bằng ứng dụng ví và thanh toán. Esc để ngừng theo dõi.",
    },
}


def text(key: str) -> str:
    return TEXTS[i18n.current_language()][key]


def fixed_journal(path: Path) -> Journal:
    """A journal holding a morning's sales, every time fixed."""
    clock = FixedClock()
    journal = Journal.open(path, clock=clock)
    rows = [
        ("261121_counter1_0915a", 50_000, "2 cà phê sữa đá", S.SUCCEEDED, "261121000000101"),
        ("261121_counter1_0921b", 125_000, "lunch set", S.SUCCEEDED, "261121000000102"),
        ("261121_counter1_0934c", 70_000, "", S.FAILED, None),
        ("261121_counter1_0948d", 32_000, "bánh mì", S.PROCESSING, None),
    ]
    for n, (app_trans_id, amount, description, state, zp) in enumerate(rows):
        clock.ms = T0 + n * 7 * 60_000
        journal.record_intent(app_trans_id=app_trans_id, amount=amount, generation="v2",
                              description=description, payment_code=f"81234567890123{n:04d}",
                              payload_hash="0" * 64, message=text("sending"))
        clock.ms += 1_500
        if state is S.SUCCEEDED:
            journal.transition(app_trans_id, S.SUCCEEDED, message=text("paid"), return_code=1,
                               zp_trans_id=zp)
        elif state is S.FAILED:
            journal.transition(app_trans_id, S.FAILED, return_code=2, sub_return_code=-63,
                               message=text("declined"))
        else:
            journal.transition(app_trans_id, S.PROCESSING, return_code=3,
                               message=text("confirming"))
    clock.ms = T0 + 40 * 60_000
    return journal


def success_view() -> PaymentView:
    return PaymentView(
        app_trans_id="261121_counter1_1015x", state=S.SUCCEEDED, amount=50_000,
        description="2 cà phê sữa đá", return_code=1, why=Reason.text(text("paid")),
        service_message="",
        zp_trans_id="261121000000107", code_last4="4567", created_ms=T0, updated_ms=T0 + 1_800,
        polls=0, refunded_amount=0, needs_review=False)


def failure_outcome() -> ResultSummary:
    return ResultSummary(False, _("NOT PAID"), 70_000, (
        text("declined_long"), _("Order: {app_trans_id}").format(
            app_trans_id="261121_counter1_1016y")))


async def _settle(pilot: Pilot) -> None:
    app = pilot.app
    deadline = time.monotonic() + 10
    while (app.header_state["reachable"] is None or app.header_state["pending"] is None) and (
            time.monotonic() < deadline):
        await pilot.pause(0.05)
    await app.workers.wait_for_complete()
    await pilot.pause()


async def _shown(pilot: Pilot) -> None:
    """The scene is on screen: its messages handled, its tables measured, its footer showing its
    keys. Text
    fields' cursors stop blinking (shown steadily): a blink timer would make the picture depend
    on when it is taken."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()
    await wait_for_tables(pilot)
    await wait_for_footer(pilot)


async def sale(pilot: Pilot) -> None:
    await _settle(pilot)
    screen = pilot.app.screen
    screen.query_one(AmountField).amount = 50_000
    screen.query_one("#description").value = "2 cà phê sữa đá"
    await _shown(pilot)


async def sale_items(pilot: Pilot) -> None:
    await _settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, SaleScreen)
    screen.action_items()
    from pos_terminal.tui.sales import SaleItem

    screen.items = [SaleItem("Cà phê sữa đá", 25_000, 2), SaleItem("Bánh mì", 30_000, 1)]
    screen._refresh_items()
    screen.say(_("Added {name}. Next item, or Enter on the description to charge.").format(
        name="Bánh mì"))
    await _shown(pilot)


async def pay(pilot: Pilot) -> None:
    await _settle(pilot)
    await pilot.app.push_screen(PayScreen(Sale(50_000, "2 cà phê sữa đá", ())))
    await _shown(pilot)


async def result_success(pilot: Pilot) -> None:
    await _settle(pilot)
    await pilot.app.push_screen(ResultScreen(ResultSummary.from_view(success_view())))
    await _shown(pilot)


async def result_failure(pilot: Pilot) -> None:
    await _settle(pilot)
    await pilot.app.push_screen(ResultScreen(failure_outcome()))
    await _shown(pilot)


async def history(pilot: Pilot) -> None:
    await _settle(pilot)
    await pilot.app.push_screen(HistoryScreen(day=DAY))
    await pilot.app.workers.wait_for_complete()
    await _shown(pilot)


async def detail(pilot: Pilot) -> None:
    await _settle(pilot)
    await pilot.app.push_screen(PaymentDetailScreen("261121_counter1_0921b"))
    await pilot.app.workers.wait_for_complete()
    await _shown(pilot)


async def reports(pilot: Pilot) -> None:
    await _settle(pilot)
    await pilot.app.push_screen(ReportsScreen())
    await pilot.app.workers.wait_for_complete()
    await _shown(pilot)


async def banks(pilot: Pilot) -> None:
    await _settle(pilot)
    await pilot.app.push_screen(BanksScreen())
    await pilot.app.workers.wait_for_complete()
    await _shown(pilot)


async def show_qr(pilot: Pilot) -> None:
    await _settle(pilot)
    screen = ShowQrScreen(99_000)
    await pilot.app.push_screen(screen)
    view = PaymentView(
        app_trans_id="261121_counter1_1020q", state=S.PROCESSING, amount=99_000,
        description="table 4", return_code=3, why=Reason.text("Waiting."),
        service_message="",
        zp_trans_id=None, code_last4=None, created_ms=T0, updated_ms=T0, polls=0,
        refunded_amount=0, needs_review=False, kind="gateway",
        order_url="http://127.0.0.1:8765/gateway/order/3f9a0c1e2b7d4e55")
    screen._created(view)
    screen.started = 0.0  # no running clock on the picture
    screen.say(text("qr"))
    await _shown(pilot)


def processing_view() -> PaymentView:
    return PaymentView(
        app_trans_id="261121_counter1_1017p", state=S.PROCESSING, amount=120_000,
        description="", return_code=3, why=Reason.text(text("confirming")),
        service_message="", zp_trans_id=None, code_last4="7913", created_ms=T0,
        updated_ms=T0, polls=4, refunded_amount=0, needs_review=False)


async def _progress(pilot: Pilot, finished: bool) -> None:
    await _settle(pilot)
    run = PaymentRun(Sale(120_000, "", ()), "7913", "camera:0")
    run.view = processing_view()
    run.started = 1000.0
    run.clock = lambda: 1000.0 + (120.2 if finished else 12.2)  # a fixed elapsed time
    if finished:
        run.finish()
    await pilot.app.push_screen(ProgressScreen(run))
    await _shown(pilot)


async def progress(pilot: Pilot) -> None:
    await _progress(pilot, finished=False)


async def progress_deadline(pilot: Pilot) -> None:
    await _progress(pilot, finished=True)


def unreachable_printer() -> PrintOutcome:
    """The network printer 192.168.1.50:9100 timed out (said in the language shown)."""
    cause = Reason.of("printer.unreachable", kind="tcp", address="192.168.1.50:9100", port=9100,
                      detail="timed out")
    return PrintOutcome("261121_counter1_1015x", False,
                        Reason.of("receipt.not_printed", cause=cause))


async def result_receipt(pilot: Pilot) -> None:
    """PAID, and the printer could not be reached: the longest receipt line."""
    await _settle(pilot)
    screen = ResultScreen(ResultSummary.from_view(success_view()))
    await pilot.app.push_screen(screen)
    screen.receipt_done(unreachable_printer())
    await _shown(pilot)


async def signin(pilot: Pilot) -> None:
    await _settle(pilot)
    screen = SignInScreen()
    await pilot.app.push_screen(screen)
    screen.query_one("#signin-id", Input).value = "lan"
    screen.say(_("{id} is locked until {time} after too many wrong PINs. A supervisor can "
                 "unlock it now: Ctrl+U.").format(
                     id="lan", time="21/11/2026 09:20:00 (GMT+7)"), True)
    await _shown(pilot)


SUPERVISORS = [Cashier(id, name, "supervisor", 0, None, T0, None)
               for id, name in (("minh", "Minh Tran"), ("hoa", "Hoa Le"))]


async def supervisor(pilot: Pilot) -> None:
    """Refund from the detail: two supervisors (the id is asked), a wrong PIN said."""
    await _settle(pilot)
    await pilot.app.push_screen(PaymentDetailScreen("261121_counter1_0921b"))
    await pilot.app.workers.wait_for_complete()
    dialog = SupervisorDialog(_("refund {amount} of {order}").format(
        amount="125.000 ₫", order="261121_counter1_0921b"), SUPERVISORS)
    await pilot.app.push_screen(dialog)
    dialog.query_one("#supervisor-id", Input).value = "minh"
    dialog.say(_("Wrong PIN for {id}. Tries left before it is locked: {left}.").format(
        id="minh", left=4) + " " + _("Nothing was sent."), True)
    await _shown(pilot)


SCENES: dict[str, Callable[[Pilot], Awaitable[None]]] = {
    "sale": sale, "sale-items": sale_items, "pay": pay, "progress": progress,
    "progress-deadline": progress_deadline, "result-success": result_success,
    "result-failure": result_failure, "history": history, "detail": detail,
    "reports": reports, "banks": banks, "show-qr": show_qr,
    "result-receipt": result_receipt, "signin": signin, "supervisor": supervisor,
}


def scene_app(settings: Settings, journal_path: Path) -> PosApp:
    i18n.set_language(settings.terminal.language)  # the journal is written in it
    checkout = open_checkout(settings, journal=fixed_journal(journal_path))
    return PosApp(settings, Counter(settings, checkout), background=False)


async def save_all(settings: Settings, folder: Path, sizes: tuple[tuple[int, int], ...]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, setup in SCENES.items():
        for width, height in sizes:
            with tempfile.TemporaryDirectory() as tmp:
                app = scene_app(settings, Path(tmp) / "journal.sqlite3")
                async with app.run_test(size=(width, height)) as pilot:
                    await setup(pilot)
                    suffix = "" if (width, height) == sizes[0] else f"-{width}x{height}"
                    app.save_screenshot(f"{name}{suffix}.svg", str(folder))
                app.counter.checkout.close()
