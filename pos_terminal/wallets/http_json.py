"""One JSON POST to a wallet service, bounded, with the terminal's two kinds of failure kept
apart: every JSON wallet's transport (a built-in or an installed one), written once.

Below it is the transport every provider uses (pos_terminal.wallets.transport: connections that
say when they could not be opened, a total deadline per request, a bounded answer): a request
that certainly never left is ``NotSent``, any other failure after it may have left is
``NoAnswer``, an answer that cannot be read ``UnreadableAnswer``. Nothing here re-sends. A
wallet that signs the bytes it sends passes `sign` (body bytes -> extra headers): the bytes signed
are the bytes sent.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable, Mapping
from urllib.parse import urlsplit

import requests
from urllib3.exceptions import HTTPError, ReadTimeoutError

from pos_terminal.base.wallet_errors import NoAnswer, NotSent, UnreadableAnswer
from pos_terminal.wallets.json_answers import parse_json_body
from pos_terminal.wallets.transport import (
    MAX_ANSWER_BYTES,
    Deadline,
    TooLarge,
    no_retry_adapter,
    not_connected_cause,
    read_bounded,
)

USER_AGENT = "pos-terminal"


def new_session() -> requests.Session:
    session = requests.Session()
    session.verify = True
    session.headers["User-Agent"] = USER_AGENT
    for prefix in ("http://", "https://"):
        session.mount(prefix, no_retry_adapter())
    return session


def post_json(session: requests.Session, url: str, body: Mapping[str, object] | None,
              operation: str, *, wallet: str, connect_s: float, total_s: float,
              sign: Callable[[bytes], Mapping[str, str]] | None = None,
              method: str = "POST") -> dict[str, object]:
    """POST `body` as compact JSON to `wallet` (its name, for the messages); the answer's JSON
    object. `total_s` bounds the whole request. `method` "GET" with `body` None: a GET (the
    same bounds and failures; `sign` gets empty bytes)."""
    host = urlsplit(url).netloc
    operation = f"{wallet} {operation}"
    late = f"no answer to the {operation}: {host} did not answer within {total_s:g} s"
    data = b"" if body is None else json.dumps(
        body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    headers = {"Accept": "application/json", "Accept-Encoding": "identity"}
    if body is not None:
        headers["Content-Type"] = "application/json; charset=UTF-8"
    if sign is not None:
        headers.update(sign(data))
    with Deadline(total_s) as deadline:
        try:
            response = session.request(
                method, url, data=data if body is not None else None,
                timeout=(connect_s, total_s), allow_redirects=False,
                stream=True, headers=headers)
        except requests.exceptions.ConnectTimeout as exc:
            cause = f"no connection within {connect_s:g} s"
            raise NotSent(f"no answer to the {operation}: could not connect to {host} "
                          f"({cause}); nothing was sent", cause) from exc
        except requests.exceptions.ConnectionError as exc:
            why = not_connected_cause(exc)
            if why is not None:
                raise NotSent(f"no answer to the {operation}: could not connect to {host} "
                              f"({why}); nothing was sent", why) from exc
            if deadline.expired or isinstance(exc, requests.exceptions.ReadTimeout):
                raise NoAnswer(late) from exc
            raise NoAnswer(f"no answer to the {operation}: the connection to {host} failed "
                           "or was dropped") from exc
        except requests.exceptions.RequestException as exc:
            if deadline.expired or isinstance(exc, requests.exceptions.ReadTimeout):
                raise NoAnswer(late) from exc
            raise NoAnswer(f"no answer to the {operation}: {type(exc).__name__} talking "
                           f"to {host}") from exc
        try:
            content = _read(response, deadline, operation, host, late)
        finally:
            response.close()
    status = response.status_code
    if status != 200:
        raise UnreadableAnswer(f"unreadable answer to the {operation}: {host} answered "
                               f"HTTP {status}", status)
    try:
        return parse_json_body(content, status)
    except UnreadableAnswer as exc:
        raise UnreadableAnswer(f"unreadable answer to the {operation}: {exc.message}",
                               status) from None


def _read(response: requests.Response, deadline: Deadline, operation: str, host: str,
          late: str) -> bytes:
    status = response.status_code
    encoding = response.headers.get("Content-Encoding", "").strip().lower()
    if encoding not in ("", "identity"):
        raise UnreadableAnswer(f"unreadable answer to the {operation}: a compressed "
                               f"answer ({encoding}) although none was asked for", status)
    try:
        content = read_bounded(response.raw, MAX_ANSWER_BYTES, deadline)
    except TooLarge:
        raise UnreadableAnswer(f"unreadable answer to the {operation}: more than "
                               f"{MAX_ANSWER_BYTES:,} bytes", status) from None
    except (TimeoutError, OSError, HTTPError, http.client.HTTPException,
            requests.exceptions.RequestException) as exc:
        if deadline.expired or isinstance(exc, TimeoutError | ReadTimeoutError):
            raise NoAnswer(late) from exc
        raise NoAnswer(f"no answer to the {operation}: the connection to {host} dropped "
                       "mid-answer") from exc
    response.raw.release_conn()
    return content
