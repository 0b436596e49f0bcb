"""Tokens (401 / 403 by scope), and refunds: idempotent on refund_ref, with a supervisor's
authority once one exists (or a token a supervisor made trusted)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
import requests

from pos_terminal.counter.admin import Cashiers
from tests.api.conftest import Api
from tests.processes import REPO, child_env, cli_command


def paid(api: Api, sale_ref: str, amount: int = 50000) -> str:
    answer = api.post("/v1/payments", {"amount": amount, "sale_ref": sale_ref,
                                       "payment_code": api.wallet_code("an")}).json()
    assert answer["state"] == "succeeded"
    return str(answer["app_trans_id"])


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer pt_not-a-token"},
                                     {"Authorization": "Basic cG9zOnBvcw=="}])
def test_every_v1_call_needs_an_active_token(api: Api, headers: dict[str, str]) -> None:
    body = {"amount": 25000, "sale_ref": "nope", "payment_code": api.wallet_code("an")}
    for method, path in (("post", "/v1/payments"), ("get", "/v1/payments/x"),
                         ("get", "/v1/reports/x"), ("post", "/v1/refunds"),
                         ("get", "/v1/events")):
        answer = getattr(requests, method)(api.url + path, json=body, headers=headers,
                                           timeout=10)
        assert answer.status_code == 401, path
        assert answer.json()["error"]["code"] == "unauthorized"
        assert answer.headers["WWW-Authenticate"] == "Bearer"
    assert api.charges() == 0


def test_a_removed_token_is_refused(api: Api) -> None:
    from pos_terminal.counter.admin import ApiTokens

    token = api.add_token("till-2", "pay")
    ok = requests.get(api.url + "/v1/payments", params={"sale_ref": "x"},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert ok.status_code == 404  # authorised: just no such sale
    ApiTokens(api.counter.journal).remove("till-2")
    gone = requests.get(api.url + "/v1/payments", params={"sale_ref": "x"},
                        headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert gone.status_code == 401


def test_scopes_limit_what_a_token_may_do(api: Api) -> None:
    reports_only = {"Authorization": f"Bearer {api.add_token('office', 'reports')}"}
    refused = requests.post(api.url + "/v1/payments", timeout=10, headers=reports_only,
                            json={"amount": 25000, "sale_ref": "sc-1",
                                  "payment_code": api.wallet_code("an")})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert requests.get(api.url + "/v1/reports/x", headers=reports_only,
                        timeout=10).status_code == 200
    assert api.charges() == 0


def test_refunds_are_idempotent_on_refund_ref(api: Api) -> None:
    app_trans_id = paid(api, "r-1")
    body = {"app_trans_id": app_trans_id, "amount": 20000, "refund_ref": "ret-1"}
    first = api.post("/v1/refunds", body).json()
    again = api.post("/v1/refunds", body).json()
    assert first["state"] == again["state"] == "refunded"
    assert first["m_refund_id"] == again["m_refund_id"] and first["refund_ref"] == "ret-1"
    assert len(api.counter.refunds.list(app_trans_id)) == 1
    other = api.post("/v1/refunds", {**body, "amount": 10000})
    assert other.status_code == 409 and other.json()["error"]["code"] == "ref_conflict"
    assert "20.000 ₫" in other.json()["error"]["message"]
    assert api.get("/v1/refunds", params={"refund_ref": "ret-1"}).json()["m_refund_id"] == (
        first["m_refund_id"])


def test_once_a_supervisor_exists_a_refund_needs_their_pin(api: Api) -> None:
    app_trans_id = paid(api, "r-2")
    book = Cashiers(api.counter.journal)
    book.add("lan", "Lan", "4321", supervisor=True)
    body = {"app_trans_id": app_trans_id, "amount": 10000, "refund_ref": "ret-2"}
    missing = api.post("/v1/refunds", body)
    assert missing.status_code == 403
    assert missing.json()["error"]["code"] == "authority_required"
    wrong = api.post("/v1/refunds", {**body, "supervisor": "lan", "pin": "0000"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "authority_refused"
    assert "0000" not in wrong.text
    assert book.get("lan").failed_attempts == 1  # the same attempt counter as the UI and CLI
    assert api.counter.refunds.list(app_trans_id) == []
    done = api.post("/v1/refunds", {**body, "supervisor": "lan", "pin": "4321"}).json()
    assert done["state"] == "refunded" and done["authorised_by"] == "lan"


def test_a_trusted_refund_token_refunds_without_a_pin_on_its_supervisors_authority(
        api: Api) -> None:
    app_trans_id = paid(api, "r-3")
    Cashiers(api.counter.journal).add("lan", "Lan", "4321", supervisor=True)
    trusted = api.add_token("backoffice", "refund", "trusted-refund", authorised_by="lan")
    answer = requests.post(api.url + "/v1/refunds", timeout=30,
                           headers={"Authorization": f"Bearer {trusted}"},
                           json={"app_trans_id": app_trans_id, "amount": 50000,
                                 "refund_ref": "ret-3"}).json()
    assert answer["state"] == "refunded" and answer["authorised_by"] == "lan"


def test_api_token_add_prints_it_once_and_the_journal_keeps_only_its_hash(
        config_file: Path, settings: object) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cli_command("--config", str(config_file), *args), text=True,
                              capture_output=True, env=child_env(), cwd=REPO, timeout=60)

    added = run("api-token", "add", "kassa", "--scope", "pay", "--json")
    assert added.returncode == 0, added.stderr
    token = json.loads(added.stdout)["token"]
    assert token.startswith("pt_") and json.loads(added.stdout)["scopes"] == ["pay"]
    journal = Path(settings.terminal.journal)  # type: ignore[attr-defined]
    with sqlite3.connect(journal) as db:
        dumped = "\n".join(db.iterdump())
    assert token not in dumped and token not in journal.read_bytes().decode("latin-1")
    listed = run("api-token", "list", "--json")
    assert [t["name"] for t in json.loads(listed.stdout)["tokens"]] == ["kassa"]
    assert token not in listed.stdout
    assert run("api-token", "add", "kassa").returncode == 2  # the name is taken
    assert run("api-token", "remove", "kassa").returncode == 0
    assert json.loads(run("api-token", "list", "--json").stdout)["tokens"] == []


def test_a_trusted_refund_token_needs_a_supervisors_pin_to_be_made(
        config_file: Path, settings: object) -> None:
    from pos_terminal.counter.admin import Journal

    with Journal.open(settings.terminal.journal) as journal:  # type: ignore[attr-defined]
        Cashiers(journal).add("lan", "Lan", "4321", supervisor=True)

    def add(*extra: str, pin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(cli_command("--config", str(config_file), "api-token", "add",
                                          "backoffice", "--scope", "refund", "--scope",
                                          "trusted-refund", "--json", *extra),
                              text=True, capture_output=True, env=child_env(), cwd=REPO,
                              timeout=60, input=pin)

    refused = add()
    assert refused.returncode == 2 and "supervisor must authorise" in refused.stderr
    wrong = add("--supervisor", "lan", "--pin-stdin", pin="0000\n")
    assert wrong.returncode == 2 and "0000" not in wrong.stderr + wrong.stdout
    made = add("--supervisor", "lan", "--pin-stdin", pin="4321\n")
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["authorised_by"] == "lan"
