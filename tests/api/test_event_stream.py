"""The POS's event stream: only for the POS's scopes (a display token reads the display,
nothing else), a malformed Last-Event-ID is ignored (never a 500), and ids keep increasing
across restarts, with a reset and the settled payments replayed for a POS that resumes from an
id this run cannot serve: it never misses a settled payment."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest
import requests

from pos_terminal.config import Settings
from tests.api.conftest import Api, start_api, wait_until

Events = list[dict[str, Any]]


def read_events(api: Api, done: Callable[[Events], bool], last_id: str | None = None,
                token: str | None = None) -> Events:
    headers = {"Authorization": f"Bearer {token or api.token}"}
    if last_id is not None:
        headers["Last-Event-ID"] = last_id
    seen: Events = []
    with requests.get(api.url + "/v1/events", headers=headers, stream=True,
                      timeout=30) as answer:
        assert answer.status_code == 200, answer.text
        event: dict[str, Any] = {}
        for raw in answer.iter_lines(decode_unicode=True):
            if raw.startswith("id:"):
                event["id"] = int(raw[3:].strip())
            elif raw.startswith("data:"):
                event.update(json.loads(raw[5:].strip()))
            elif raw == "" and "type" in event:
                seen.append(event)
                event = {}
                if done(seen):
                    return seen
    return seen


def _settled(ref: str) -> Callable[[Events], bool]:
    return lambda seen: any(e["type"] == "payment_settled" and e["sale_ref"] == ref
                            for e in seen)


def _pay(api: Api, ref: str) -> dict[str, Any]:
    answer = api.post("/v1/payments", {"amount": 1000, "sale_ref": ref,
                                       "payment_code": api.wallet_code("an")})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _in_background(api: Api, done: Callable[[Events], bool], last_id: str | None = None
                   ) -> tuple[threading.Thread, Events]:
    out: Events = []
    listening = api.server.terminal.feed.listening

    def run() -> None:
        out.extend(read_events(api, done, last_id))

    reader = threading.Thread(target=run)
    reader.start()
    wait_until("the stream open", lambda: api.server.terminal.feed.listening > listening)
    return reader, out


def test_a_display_token_does_not_read_the_cashier_s_stream(api: Api) -> None:
    display = api.add_token("tablet", "display")
    for path in ("/v1/events", "/v1/payments?sale_ref=x", "/v1/reports/x"):
        answer = requests.get(api.url + path, headers={"Authorization": f"Bearer {display}"},
                              timeout=10, stream=True)
        assert answer.status_code == 403, path
        assert answer.json()["error"]["code"] == "forbidden"
    refunds_only = api.add_token("backoffice", "refund")
    answer = requests.get(api.url + "/v1/events", stream=True, timeout=10,
                          headers={"Authorization": f"Bearer {refunds_only}"})
    assert answer.status_code == 200
    answer.close()


@pytest.mark.parametrize("last_id", ["9" * 5000, "1" * 19, "\u00b2", "12abc", "-5", ""])
def test_a_malformed_last_event_id_is_ignored(api: Api, last_id: str,
                                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    reader, seen = _in_background(api, _settled("lei-1"), last_id)
    _pay(api, "lei-1")
    reader.join(30)
    assert _settled("lei-1")(seen)
    assert seen[0]["type"] != "stream_reset"
    assert "Traceback" not in caplog.text and "unexpected" not in caplog.text


def test_ids_keep_increasing_across_a_restart_and_no_settled_payment_is_missed(
        settings: Settings, emulator: object) -> None:
    first, stop = start_api(settings, emulator)
    try:
        reader, seen = _in_background(first, _settled("run1-a"))
        _pay(first, "run1-a")
        reader.join(30)
        last_seen = seen[-1]["id"]
        _pay(first, "run1-b")  # settled while the POS was away
    finally:
        stop()
    second, stop = start_api(settings, emulator, token_name="pos-again")
    try:
        resumed, got = _in_background(second, _settled("run2-c"), str(last_seen))
        paid_c = _pay(second, "run2-c")
        resumed.join(30)
        assert got[0]["type"] == "stream_reset" and got[0]["reason"] == "restarted"
        replayed = {e["sale_ref"]: e for e in got if e.get("replayed")}
        assert replayed["run1-b"]["paid"] is True  # never missed
        live = [e for e in got if not e.get("replayed") and e["type"] != "stream_reset"]
        assert live and all(e["id"] > last_seen for e in live)
        assert live[-1]["app_trans_id"] == paid_c["app_trans_id"]
        # an id never sent (above the newest) is not a dead stream either
        future = str(live[-1]["id"] + 1000)
        again = read_events(second, lambda s: len(s) >= 1, future)
        assert again[0]["type"] == "stream_reset" and again[0]["reason"] == "unknown_id"
    finally:
        stop()
