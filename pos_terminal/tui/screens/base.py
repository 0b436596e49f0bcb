"""What every screen shares: the status header on top, the key hints at the bottom."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from pos_terminal.base.i18n import _, current_language
from pos_terminal.tui.widgets.header import StatusHeader
from pos_terminal.tui.widgets.line import Line
from pos_terminal.tui.widgets.phrases import PhraseLine

if TYPE_CHECKING:
    from pos_terminal.tui.host import CounterHost


COMPACT_FOOTER_BELOW = 100  # columns: narrower terminals (80x24) get the compact footer
MIN_SIZE = (80, 24)  # every screen is laid out to fit this
ResultT = TypeVar("ResultT")


class PosScreen(Screen[ResultT]):
    """A screen's answer to the screen that opened it is its typed result (`dismiss`, the
    callback given to `push_screen`), never a flag on the App."""

    language = ""  # the language the screen was last drawn in
    passing = False  # only passing its Result's answer on (Pay, Show QR): never redrawn
    takes_codes = False  # a scanner's read is expected here (CodeScanned): tui/app.py's wedge
    _when_on_top: Callable[[], object] | None = None  # to run as soon as it is on top again
    _redrawing = False  # F8 is drawing it again (retranslate)
    _after_redraw: tuple[Callable[[], object], ...] = ()

    def compose(self) -> ComposeResult:
        self.language = current_language()
        settings = self.pos.settings
        yield StatusHeader(settings.service.environment, settings.terminal.terminal_id)
        yield from self.body()
        yield Footer(compact=self.app.size.width < COMPACT_FOOTER_BELOW)
        yield PhraseLine("", id="too-small", classes="hidden")
        self.call_after_refresh(self._check_size, self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        # Every key hint, Quit included, must fit on one line at 80 columns.
        for footer in self.query(Footer):
            footer.compact = event.size.width < COMPACT_FOOTER_BELOW
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        """Below 80x24 the screen's text would be cut: a notice over it says so instead. Keys
        still work under it (nothing typed is lost)."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        for notice in self.query("#too-small").results(Line):
            notice.update(_("The window is too small ({width}×{height}): make it at least "
                            "{min_width}×{min_height} to see the whole screen.").format(
                width=width, height=height, min_width=MIN_SIZE[0], min_height=MIN_SIZE[1])
                if small else "")
            notice.set_class(not small, "hidden")

    def body(self) -> Iterable[Widget]:
        return ()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The key hints in the current language (bindings carry the English msgid)."""
        return {
            key: active._replace(binding=dataclasses.replace(
                active.binding, description=_(active.binding.description)))
            if active.binding.description else active
            for key, active in super().active_bindings.items()
        }

    # ---- the language switch ------------------------------------------------------------
    def can_switch_language(self) -> bool:
        """False while redrawing would lose what the screen is doing (a code being charged)."""
        return True

    def keep_state(self) -> Any:
        """What the cashier typed, to survive the redraw in another language."""
        return None

    def restore_state(self, state: Any) -> None:
        pass

    async def retranslate(self) -> None:
        """Draw the screen again in the current language, keeping what was typed."""
        if not self.is_current or self.passing:
            return  # closed or closing (it gave its answer), or covered: drawn on resume
        self._redrawing = True
        try:
            state = self.keep_state()
            await self.recompose()
            mount = getattr(self, "on_mount", None)
            if callable(mount):
                mount()  # tables get their (translated) columns and content again
            self.restore_state(state)
            self.refresh_bindings()
        finally:
            self._redrawing = False
            pending, self._after_redraw = self._after_redraw, ()
            for act in pending:
                act()

    @property
    def redrawing(self) -> bool:
        """F8 is drawing it again: keys wait (tui/keys.py), answers wait (`once_drawn`)."""
        return self._redrawing

    def once_drawn(self, act: Callable[[], object]) -> None:
        """Run `act` (which changes what the screen shows) now, or once the redraw under way
        is done: an answer that arrives while F8 draws the screen again (a Result closed in
        the new language) would otherwise be undone by `restore_state`."""
        if self._redrawing:
            self._after_redraw = (*self._after_redraw, act)
        else:
            act()

    def on_screen_resume(self) -> None:
        # Textual also runs the subclass's own handler: a screen left under another one while
        # the language changed is redrawn when it comes back.
        if self._when_on_top is not None:
            act, self._when_on_top = self._when_on_top, None
            act()
        elif self.language and self.language != current_language() and not self.passing:
            self.call_later(self.retranslate)

    def when_on_top(self, act: Callable[[], object]) -> None:
        """Run `act` (which changes screens) now if this screen is on top, else as soon as it is
        again: dismissing or pushing from under another screen (the quit question) would close
        or cover the wrong one."""
        if self.is_current:
            act()
        else:
            self._when_on_top = act

    def answer(self, result: ResultT) -> None:
        """Dismiss with `result` once this screen is on top (when_on_top)."""
        self.when_on_top(lambda: self.dismiss(result))

    # ---- leaving: sign-out (F12) and closing the terminal (Ctrl+Q) ------------------------
    def must_not_be_left(self) -> bool:
        """True while signing out or closing the terminal would lose what the screen is doing
        (the Z report being made): F12 and Ctrl+Q wait meanwhile (PosApp)."""
        return False

    def say_leaving_waits(self) -> None:
        """Say on the screen why F12 and Ctrl+Q wait (while `must_not_be_left`)."""

    def shows_receipt(self, subject_id: str, app_trans_id: str) -> bool:
        """Whether this screen shows how the printing of this receipt goes (ReceiptUpdate)."""
        return False

    @property
    def pos(self) -> CounterHost:
        return cast("CounterHost", self.app)

