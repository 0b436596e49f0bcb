"""Showing payment codes without revealing them (kept for compatibility: see base/codes.py)."""

from __future__ import annotations

from pos_terminal.base.codes import MASK, mask_code

__all__ = ["MASK", "mask_code"]
