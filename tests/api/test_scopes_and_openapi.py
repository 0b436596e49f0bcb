"""One scope table: docs/terminal-api.md's is the code's (api/scopes.py), every route has a row,
and every call refuses a token without its scope. /openapi.json describes each call's success
answer and its own errors, and /v1/events as text/event-stream."""

from __future__ import annotations

import re
from pathlib import Path

import requests

from pos_terminal.api.app import create_app
from pos_terminal.api.documented import CALL_ERRORS
from pos_terminal.api.scopes import CALL_SCOPES
from pos_terminal.counter.admin import SCOPES
from tests.api.conftest import Api

DOC = Path(__file__).resolve().parents[2] / "docs" / "terminal-api.md"
ROW = re.compile(r"^\| `((?:GET|POST) [^`]+)` \| (.+) \|$")


def _doc_table() -> dict[str, tuple[str, ...]]:
    text = DOC.read_text("utf-8")
    section = text.split("### Tokens and scopes", 1)[1].split("## The calls", 1)[0]
    table: dict[str, tuple[str, ...]] = {}
    for line in section.splitlines():
        found = ROW.match(line)
        if found:
            # the scopes are the backticked words before any parenthesis
            cell = found.group(2).split("(", 1)[0]
            table[found.group(1)] = tuple(re.findall(r"`([a-z-]+)`", cell))
    return table


def test_the_scope_table_of_the_docs_is_the_one_the_code_enforces(api: Api) -> None:
    assert _doc_table() == CALL_SCOPES
    doc = create_app(api.server.terminal).openapi()
    routes = {f"{method.upper()} {path}" for path, ops in doc["paths"].items() for method in ops}
    routes = {r for r in routes if r.split()[0] in ("GET", "POST")}
    assert routes == set(CALL_SCOPES) == set(CALL_ERRORS)
    assert all(set(scopes) <= set(SCOPES) for scopes in CALL_SCOPES.values())


def _concrete(path: str) -> str:
    return re.sub(r"\{[a-z_]+\}", "x", path)


def test_every_call_refuses_a_token_without_its_scope(api: Api) -> None:
    for call, scopes in CALL_SCOPES.items():
        method, path = call.split(" ", 1)
        if not path.startswith("/v1"):
            continue  # the display: free on loopback (tests/api/test_display.py)
        if not scopes:
            continue  # a wallet's notice: no token, its signature (test_payos_webhook.py)
        others = [s for s in SCOPES if s not in scopes]
        token = api.add_token("t" + str(abs(hash(call)) % 10**8), *others)
        answer = requests.request(method, api.url + _concrete(path), json={} if method ==
                                  "POST" else None, timeout=10,
                                  headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 403, (call, answer.text)
        assert answer.json()["error"]["code"] == "forbidden"
    assert api.charges() == 0


def test_openapi_describes_answers_own_errors_and_the_event_stream(api: Api) -> None:
    doc = requests.get(api.url + "/openapi.json", timeout=10).json()
    paths = doc["paths"]
    pay = paths["/v1/payments"]["post"]["responses"]
    schema = pay["200"]["content"]["application/json"]["schema"]["$ref"]
    assert schema.endswith("/PaymentOut")
    payment_out = doc["components"]["schemas"]["PaymentOut"]
    assert {"state", "outcome", "app_trans_id", "sale_ref"} <= set(payment_out["properties"])
    assert "ref_conflict" in pay["409"]["description"]
    assert "invalid_json" in pay["400"]["description"]
    report = paths["/v1/reports/x"]["get"]["responses"]
    assert "409" not in report and "413" not in report  # its own errors only
    assert "RefundOut" in paths["/v1/refunds"]["post"]["responses"]["200"]["content"][
        "application/json"]["schema"]["$ref"]
    events = paths["/v1/events"]["get"]["responses"]["200"]["content"]
    assert list(events) == ["text/event-stream"]
    assert "421" in paths["/display"]["get"]["responses"]
