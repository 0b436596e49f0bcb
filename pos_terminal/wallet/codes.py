"""Showing payment codes without revealing them."""

from __future__ import annotations

MASK = "••••"


def mask_code(code: str) -> str:
    """``••••`` plus the last 4 characters; a code of 4 characters or fewer is hidden whole."""
    if len(code) <= 4:
        return MASK
    return MASK + code[-4:]
