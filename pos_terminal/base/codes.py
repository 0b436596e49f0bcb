"""The customer's payment code: the one place that validates it and masks it.

A payment code is opaque printable ASCII. It is never shown, logged or stored whole: the screen
shows ``••••`` and its last 4 characters, the journal only a keyed fingerprint and (for a code of
8 or more characters) its last 4. Which characters and lengths a *scanner* accepts is the
configuration's [scanner] filter (`format_problem`); the camera's acceptance of a read stays in
hardware/.
"""

from __future__ import annotations

from enum import StrEnum

MASK = "••••"

#: A code shorter than this keeps no characters at all in the journal: its last 4 would be most
#: of it.
MIN_CODE_FOR_LAST4 = 8


class CodeProblem(StrEnum):
    EMPTY = "empty"  # missing, or only white space
    CHARACTERS = "characters"  # not printable ASCII, or white space around it
    LENGTH = "length"  # outside the [scanner] lengths
    ALPHABET = "alphabet"  # a character outside the [scanner] alphabet


def code_problem(code: object) -> CodeProblem | None:
    """What makes `code` no payment code at all (None: it may be one)."""
    if not isinstance(code, str) or not code.strip():
        return CodeProblem.EMPTY
    if not code.isascii() or not code.isprintable() or code != code.strip():
        return CodeProblem.CHARACTERS
    return None


def format_problem(code: str, *, alphabet: str, min_length: int,
                   max_length: int) -> CodeProblem | None:
    """What a scanner filtering on `alphabet` and these lengths would refuse in `code`."""
    if not min_length <= len(code) <= max_length:
        return CodeProblem.LENGTH
    if any(ch not in alphabet for ch in code):
        return CodeProblem.ALPHABET
    return None


def mask_code(code: str) -> str:
    """``••••`` plus the last 4 characters; a code of 4 characters or fewer is hidden whole."""
    if len(code) <= 4:
        return MASK
    return MASK + code[-4:]


def code_last4(code: str) -> str | None:
    """The last 4 characters a journal keeps of a code, or None for a code shorter than 8
    (whose last 4 would reveal too much of it)."""
    return code[-4:] if len(code) >= MIN_CODE_FOR_LAST4 else None


def mask_last4(last4: str | None, missing: str = "????") -> str:
    """A code known only by its journaled last 4 characters, masked like `mask_code`."""
    return MASK + (missing if last4 is None else last4)


__all__ = ["MASK", "MIN_CODE_FOR_LAST4", "CodeProblem", "code_last4", "code_problem",
           "format_problem", "mask_code", "mask_last4"]
