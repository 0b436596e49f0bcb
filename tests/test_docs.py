"""The docs point at what exists: every relative link in README.md and docs/ reaches a file and,
when it names one, a heading of it; every test docs/security.md names for a rule exists."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""(?:href|src)=["']([^"']+)["']""")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def prose(text: str) -> str:
    """The page without code blocks and code spans, where a bracket is no link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lowercased, no punctuation, a dash for each space."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def relative_links(page: Path) -> list[str]:
    text = prose(page.read_text(encoding="utf-8"))
    targets = LINK.findall(text) + HTML_LINK.findall(text)
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I)]


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no file {os.path.relpath(dest, ROOT)}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {os.path.relpath(dest, ROOT)}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_its_heading(page: Path) -> None:
    assert broken_links(page) == []


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## Its part: one\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\nGood: [a](other.md), [b](other.md#its-part-one), [c](#page).\n"
        "Bad: [d](missing.md), [e](other.md#no-such-part), [f](#nowhere).\n"
        "Not links: `[g](missing.md)`, https://example.com, [h](https://example.com/x.md).\n"
        "```\n[i](missing-too.md)\n```\n", encoding="utf-8")
    assert [b.split(":")[0] for b in broken_links(page)] == [
        "missing.md", "other.md#no-such-part", "#nowhere"]


def test_headings_become_githubs_anchors() -> None:
    assert slug("Least privilege: each counter its own login") == (
        "least-privilege-each-counter-its-own-login")
    assert slug("Một ngày của thu ngân") == "một-ngày-của-thu-ngân"
    assert slug("What `./pos test` skips, and why") == "what-pos-test-skips-and-why"


# docs/security.md: each rule is a table row whose last cell names its tests: `tests/f.py::name`,
# `::name` (the file named before it in the row), `tests/f.py` (the whole file), a bare
# `test_name` (in the file the section says its tests are in), or "same test" (the row above's).
SECURITY = ROOT / "docs" / "security.md"
SECTION_FILE = re.compile(r"Tests: `(tests/[\w/]+\.py)`")
REF = re.compile(r"`((?:tests/[\w/.]+)?(?:::\w+(?:\[[^\]]*\])?)?|test_\w+)`")


def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    return {n.name for n in ast.walk(tree) if isinstance(n, functions)}


def rule_rows(text: str) -> list[tuple[str, str, str | None]]:
    """(section, last cell, the section's test file) for each rule under a ## section."""
    rows = []
    section, section_file = "", None
    for line in text.splitlines():
        if line.startswith("## "):
            section, section_file = line[3:], None
        elif (m := SECTION_FILE.search(line)) and not line.startswith("|"):
            section_file = m.group(1)
        elif line.startswith("|") and section and section != "Who is trusted, and with what":
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[-1] in ("test", "tests") or set(cells[-1]) <= set("-: "):
                continue
            rows.append((section, cells[-1], section_file))
    return rows


def unresolved(text: str, root: Path) -> list[str]:
    problems = []
    for section, cell, section_file in rule_rows(text):
        refs = REF.findall(cell)
        if not refs and not cell.startswith("same test"):
            problems.append(f"{section}: a rule names no test: {cell!r}")
        current_file = section_file
        for ref in refs:
            if ref.startswith("test_"):
                file, name = section_file, ref
            else:
                file_part, _, name = ref.partition("::")
                file = file_part or current_file
                current_file = file
            name = name.split("[")[0]
            if file is None:
                problems.append(f"{section}: {ref} names no file")
                continue
            path = root / file
            if not path.exists():
                problems.append(f"{section}: {ref}: no {file}")
            elif name and path.suffix == ".py" and name not in defined_tests(path):
                problems.append(f"{section}: {ref}: no {name} in {file}")
    return problems


def test_every_rule_in_the_threat_model_names_tests_that_exist() -> None:
    assert rule_rows(SECURITY.read_text(encoding="utf-8"))
    assert unresolved(SECURITY.read_text(encoding="utf-8"), ROOT) == []


def test_a_renamed_or_missing_test_is_found(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_one(): ...\ndef test_two(): ...\n")
    page = (
        "## Who is trusted, and with what\n\n| actor | not trusted with |\n|---|---|\n| x | y |\n\n"
        "## A part\n\nTests: `tests/test_a.py` unless named otherwise.\n\n"
        "| rule | test |\n|---|---|\n"
        "| good | `tests/test_a.py::test_one`, `::test_two`, `test_one` |\n| same | same test |\n"
        "| renamed | `tests/test_a.py::test_three` |\n| gone | `tests/test_b.py` |\n"
        "| bare | `test_four` |\n| none | nobody wrote one |\n")
    assert unresolved(page, tmp_path) == [
        "A part: tests/test_a.py::test_three: no test_three in tests/test_a.py",
        "A part: tests/test_b.py: no tests/test_b.py",
        "A part: test_four: no test_four in tests/test_a.py",
        "A part: a rule names no test: 'nobody wrote one'",
    ]


def test_the_configuration_reference_names_every_key() -> None:
    """docs/configuration.md is "every key": each key of each section of Settings is named."""
    from pydantic import BaseModel

    from pos_terminal.config import Settings

    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = []
    for section, field in Settings.model_fields.items():
        model = field.annotation
        if isinstance(model, type) and issubclass(model, BaseModel):
            missing += [f"[{section}] {key}" for key in model.model_fields
                        if f"`{key}`" not in text and f"{key} = " not in text]
    assert missing == []


def test_the_command_list_names_every_command() -> None:
    """docs/commands.md lists every command of `pos-terminal` (and each group's subcommands)."""
    import click

    from pos_terminal.cli import main

    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `pos-terminal ")]
    missing = []
    for name, command in main.commands.items():
        named = [r for r in rows if r.startswith(f"| `pos-terminal {name}")]
        if not named:
            missing.append(name)
        elif isinstance(command, click.Group):
            missing += [f"{name} {sub}" for sub in command.commands
                        if not any(re.search(rf"[ |\\`]{re.escape(sub)}\b", r) for r in named)]
    assert missing == []


def misshapen_rows(text: str) -> list[str]:
    """Table rows with another number of cells than their header (an unescaped | in a cell)."""
    rows, header = [], None
    for line in FENCE.sub("", text).splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = len(re.split(r"(?<!\\)\|", line.strip().strip("|")))
        if header is None:
            header = cells
        elif cells != header:
            rows.append(line[:80])
    return rows


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_table_row_has_its_headers_cells(page: Path) -> None:
    assert misshapen_rows(page.read_text(encoding="utf-8")) == []


def test_a_pipe_in_a_cell_is_found() -> None:
    assert misshapen_rows("| a | b |\n|---|---|\n| `x|y` | z |\n| `x\\|y` | z |\n") == [
        "| `x|y` | z |"]


# ---------------------------------------------------------------- the integrator's walk-through
WALK_THROUGH = ROOT / "docs" / "terminal-api.md"
SETUP_LINE = "./pos setup"
SHELL_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)


def walk_through_blocks() -> list[str]:
    text = WALK_THROUGH.read_text(encoding="utf-8")
    section = text.split("## A walk-through with curl", 1)[1].split("\n## ", 1)[0]
    return SHELL_BLOCK.findall(section)


def test_the_integrators_walk_through_runs_as_written(tmp_path: Path) -> None:
    """docs/terminal-api.md's walk-through, its shell blocks run as written by bash from the
    checkout, in a network namespace of its own (its loopback only, so its fixed ports are free
    whatever else runs) and a home of its own (the default journal): the sale is paid once, the
    retry and the look-up find it, another amount is refused, the refund is made. Only `./pos
    setup` is left out: this checkout is set up (it runs the tests)."""
    import shutil
    import subprocess

    from tests.processes import child_env

    start, calls = walk_through_blocks()
    lines = start.splitlines()
    assert lines[0].startswith(SETUP_LINE)
    for needed in ("curl", "unshare", "ip"):
        if shutil.which(needed) is None:
            pytest.skip(f"the walk-through test needs {needed}")
    ready = ("for _ in $(seq 300); do curl -s -o /dev/null http://127.0.0.1:8780/openapi.json "
             "&& curl -s -o /dev/null http://127.0.0.1:8765/_emulator/wallets && break; "
             "sleep 0.2; done")
    script = "\n".join(["trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT", "ip link set lo up",
                        *lines[1:], ready, "echo", "echo WALK-THROUGH", calls])
    done = subprocess.run(["unshare", "--map-root-user", "--net", "bash", "-c", script],
                          cwd=ROOT, capture_output=True, text=True, timeout=180, check=False,
                          env=child_env(HOME=str(tmp_path)))
    if "unshare:" in done.stderr and "WALK-THROUGH" not in done.stdout:
        pytest.skip(f"no network namespace here: {done.stderr.strip()}")
    out = done.stdout.split("WALK-THROUGH", 1)[1]
    # the sale, the look-up and the same POST again: one payment; the refund's own outcome
    assert out.count('"outcome":"paid"') == 3, (out, done.stderr)
    assert out.count('"outcome":"refunded"') == 1, out
    assert len(set(re.findall(r'"app_trans_id":"([^"]+)"', out))) == 1, out
    assert '"code":"ref_conflict"' in out and "of 25.000 ₫, not 26.000 ₫" in out
    assert '"state":"refunded"' in out and '"refund_ref":"1001-r1"' in out
    assert '"sales_count":1' in out, out
