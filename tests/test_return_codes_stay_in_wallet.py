"""No wallet return-code number is read outside pos_terminal/wallets/zalopay/.

The wallet classifies its own codes (results.WalletOutcome, returncodes.never_arrived); the
checkout, the journal and the front ends act on that vocabulary. This scans their source for
code numbers used as such: comparisons of a return-code name with a number, documented code
numbers written as literals, and SQL comparing a return-code column with a number.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from pos_terminal.wallets.zalopay import code_table, constants, returncodes

ROOT = Path(__file__).resolve().parent.parent / "pos_terminal"
SCANNED = ("checkout", "journal", "cli", "tui", "counter", "sentences", "headless.py")

_CODE_NAMES = re.compile(r"(return_?code|^rc$|sub_code)", re.IGNORECASE)
_SQL_CODE = re.compile(r"return_?code\s*(=|==|!=|<>|<|>|\bIN\b)\s*\(?\s*-?\d", re.IGNORECASE)
#: Every code number the wallet package documents or acts on (1, 2, 3 are too common to flag
#: anywhere but in a comparison with a return-code name).
_KNOWN = ({c for c in returncodes.PAYMENT_REASONS if c < 0} | set(returncodes.REQUEST_REFUSALS)
          | {constants.RC_NOT_FOUND, constants.RC_DUPLICATE}
          # every negative code or sub code of ZaloPay's published table (issue 29)
          | {c for table in code_table.TABLES.values() for row in table
             for c in (row.code, row.sub_code) if c is not None and c < 0})


def _names(node: ast.AST) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id
        elif isinstance(sub, ast.Attribute):
            yield sub.attr


def _int_literal(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int):
        return -node.operand.value
    return None


def problems_in(source: str, name: str = "<source>") -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        where = f"{name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            coded = any(_CODE_NAMES.search(n) for op in operands for n in _names(op))
            numbers = [v for op in operands for sub in ast.walk(op)
                       if (v := _int_literal(sub)) is not None]
            if coded and numbers:
                found.append(f"{where}: a return code compared with {numbers}")
        value = _int_literal(node)
        if value is not None and value in _KNOWN:
            found.append(f"{where}: the wallet code {value} written out")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _SQL_CODE.search(
                node.value):
            found.append(f"{where}: SQL comparing a return code with a number")
    return sorted(set(found))


def _files() -> Iterator[Path]:
    for part in SCANNED:
        path = ROOT / part
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from sorted(path.rglob("*.py"))


def test_no_return_code_number_outside_the_wallet_package() -> None:
    files = list(_files())
    assert len(files) > 50  # the scan reads the tree, not nothing
    problems = [p for f in files
                for p in problems_in(f.read_text("utf-8"), str(f.relative_to(ROOT)))]
    assert problems == []


def test_the_scan_finds_the_ways_codes_were_read_before() -> None:
    """What the checkout and the journal did before the wallet classified its own codes."""
    before = '''
code = result.sub_return_code if result.sub_return_code not in (None, 1, 2, 3) else None
QUERY_REFUSALS = frozenset({-92, -401, -402, -429, -500, -999})
if view.state is not S.FAILED or -101 not in (view.return_code, view.sub_return_code):
    pass
if rc in {-500}:
    pass
sql = "SELECT 1 FROM payments WHERE (return_code=-101 OR sub_return_code=-101)"
'''
    lines = {p.split(":")[1] for p in problems_in(before)}
    assert lines == {"2", "3", "4", "6", "8"}
    assert problems_in("if exit_code == 3 or len(items) > -1:\n    pass\n") == []
