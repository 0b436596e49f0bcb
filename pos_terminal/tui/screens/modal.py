"""What every dialog shares: F8 draws it again in the other language, keeping what was typed
(a PIN excepted: typed again, never kept). Its words are given as `Words`: a sentence made when
drawn (a callable), so the redraw says it in the new language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen

ResultT = TypeVar("ResultT")
Words = str | Callable[[], str]


def said(words: Words) -> str:
    """The sentence, in the language shown now."""
    return words() if callable(words) else words


class Dialog(ModalScreen[ResultT]):
    # A modal screen's keys stop at it (the App's F8 is not reached): its own F8, for the App.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f8", "app.switch_language", "VI", show=False)]

    _redrawing = False

    @property
    def redrawing(self) -> bool:
        """F8 is drawing it again: keys wait (tui/keys.py)."""
        return self._redrawing

    def keep_state(self) -> Any:
        return None

    def restore_state(self, state: Any) -> None:
        pass

    async def retranslate(self) -> None:
        if not self.is_current:
            return
        self._redrawing = True
        try:
            state = self.keep_state()
            await self.recompose()
            mount = getattr(self, "on_mount", None)
            if callable(mount):
                mount()
            self.restore_state(state)
            self.refresh_bindings()
        finally:
            self._redrawing = False
