"""Money on receipts: the terminal's one formatter (pos_terminal.base.money), "10.000 ₫"."""

from __future__ import annotations

from pos_terminal.base.money import format_vnd

__all__ = ["format_vnd"]
