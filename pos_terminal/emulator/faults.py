"""Fault injection: rules that make the next N requests of an endpoint (or of a wallet) misbehave.

Modes and whether the request is processed (a charge committed) before the fault shows:

=================== ========== ====================================================
mode                committed  what the client sees
=================== ========== ====================================================
delay               yes        committed at once; the normal answer ``delay_s`` late
                               (a slow answer)
delay_before_commit yes, late  held ``delay_s`` *before* it is processed, then
                               committed and answered (a request stuck in transit:
                               a status query meanwhile finds no order)
http500             no         HTTP 500 with a short JSON-less body
html                no         an HTML error page (HTTP ``status``: 502, 503 or 200)
refuse              no         HTTP 200, a well-formed refusal with ``return_code``
garbage             yes        HTTP 200, bytes that are not JSON
truncated           yes        HTTP 200, the real JSON answer cut in half
drop                no         the connection closes, no answer at all
drop_after_commit   yes        the charge is committed, then the connection closes
slow_drip           yes        the real answer, one byte every ``interval_ms``
huge                yes        HTTP 200 JSON that never seems to end: ``size_mb`` MB,
                               streamed (never held in memory)
gzip_bomb           yes        ``Content-Encoding: gzip`` (asked for or not): a few
                               hundred kB that inflate to ``size_mb`` MB
duplicate_keys      yes        the real answer with its return code repeated as 1
                               ("paid") at the end: a lenient parser reads success
hostile_text        yes        the real answer, its messages replaced by Rich markup
                               and terminal escape sequences (``HOSTILE_TEXT``)
answer_*            yes        the real answer, altered (below): answers that must not
                               be believed
=================== ========== ====================================================

The streamed modes (slow_drip, huge, gzip_bomb) count the bytes they managed to write before
the client hung up: ``FaultBook.sent_bytes(mode)`` (the emulator's control: ``fault_stats()``).

Altered answers (the request is processed normally; only what it says back is wrong):
``answer_amount`` reports 1,000 VND more than the order; ``answer_negative_amount`` the amount
negated; ``answer_subcode`` return code 1 with ``return_code`` of the rule as the v2
sub-code (e.g. -63); ``answer_no_zptransid`` no wallet transaction id; ``answer_other_id``
names another app_trans_id; ``answer_huge_code`` a return code of 5,000 digits;
``answer_undocumented_code`` the positive, undocumented return code 7; ``answer_code`` any code the
rule gives (``return_code``, and ``sub_return_code`` for the current generation, e.g. 2 / -135):
the request is processed (a quick pay charges, a refund refunds), then answered with only that
code, its words and the request's id, as the service answers a refusal. With ``count`` N on the
status query, the next N queries say that code, then the truth.

A rule applies the same way whether it names a wallet or not (a wallet rule is only known once
the request names its wallet; the request is then held or answered exactly as an endpoint rule
would do it).
"""

from __future__ import annotations

import asyncio
import functools
import json
import threading
import zlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from aiohttp import web

from pos_terminal.emulator import wallets

#: The house service's codes a fault answers with: "rate limited" (a refuse's default) and
#: "success" (the code an answer_code mutation replaces), as its wire format numbers them.
RATE_LIMITED = -429
ANSWER_OK = 1

#: Modes that answer with a bad body after the request was processed (see answer_with()).
ANSWER_BODY_MODES = ("slow_drip", "huge", "gzip_bomb", "duplicate_keys", "hostile_text")
#: Modes that answer a processed request with its real answer altered (answer_body()).
ANSWER_MUTATIONS = ("answer_amount", "answer_negative_amount", "answer_subcode",
                    "answer_no_zptransid", "answer_other_id", "answer_huge_code",
                    "answer_undocumented_code", "answer_code")
MODES = ("delay", "delay_before_commit", "http500", "html", "refuse", "garbage", "truncated",
         "drop", "drop_after_commit", *ANSWER_BODY_MODES, *ANSWER_MUTATIONS)
COMMITTING_MODES = frozenset({"delay", "delay_before_commit", "garbage", "truncated",
                              "drop_after_commit", *ANSWER_BODY_MODES, *ANSWER_MUTATIONS})
HUGE_DIGITS = 5000
CODE_LIMIT = 1_000_000  # answer_code: any code a service could plausibly send
#: The ids an answer_code answer keeps (the answer is about the request's order or refund).
_ID_KEYS = ("app_trans_id", "apptransid", "m_refund_id", "mrefundid")
#: What hostile_text puts in every message of the answer: Rich markup that does not parse,
#: markup that would restyle the screen, a terminal escape (clear screen, red) and a BEL.
HOSTILE_TEXT = "[bold]Ví [/] hết tiền [/] \x1b[2J\x1b[31mRED\x07 [link=x]click =SUM(A1)"
_MESSAGE_KEYS = ("return_message", "sub_return_message", "returnmessage")
HTML_STATUSES = (200, 502, 503)


class FaultSpecError(ValueError):
    """A fault description that cannot be used; the message says which key is wrong."""


@dataclass(frozen=True)
class FaultRule:
    endpoint: str = "*"
    mode: str = "http500"
    count: int = 1          # requests left; 0 means "until cleared"
    wallet: str | None = None
    delay_s: float = 1.0
    status: int = 502       # HTTP status of the html mode
    return_code: int = RATE_LIMITED   # of the refuse and answer_code modes
    sub_return_code: int | None = None      # of the answer_code mode (current generation)
    interval_ms: int = 1000  # slow_drip: one byte every interval_ms
    size_mb: int = 200       # huge, gzip_bomb: how much the answer is (or inflates to)

    @property
    def commits(self) -> bool:
        """The request is processed (a charge committed), before or after the fault shows."""
        return self.mode in COMMITTING_MODES

    @property
    def stops_before_commit(self) -> bool:
        """Nothing may be committed when the rule is found (refused, or held in transit)."""
        return not self.commits or self.mode == "delay_before_commit"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def parse_rule(data: Mapping[str, Any], wallet_ids: tuple[str, ...]) -> FaultRule:
    """Validate a rule given as JSON (control API) or TOML (configuration)."""
    known = {"endpoint", "mode", "count", "wallet", "delay_s", "status", "return_code",
             "sub_return_code", "interval_ms", "size_mb"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise FaultSpecError(f"unknown key {unknown[0]!r}; known keys: {', '.join(sorted(known))}")
    endpoint = data.get("endpoint", "*")
    names = wallets.endpoint_names()
    if endpoint != "*" and endpoint not in names:
        raise FaultSpecError(
            f"endpoint must be one of {', '.join(names)} or *; got {endpoint!r}")
    mode = data.get("mode")
    if mode not in MODES:
        raise FaultSpecError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    count = data.get("count", 1)
    if count is None:
        count = 1
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise FaultSpecError(f"count must be a whole number >= 0 (0: until cleared); got {count!r}")
    wallet = data.get("wallet")
    if wallet is not None and wallet not in wallet_ids:
        raise FaultSpecError(f"wallet must be one of {', '.join(wallet_ids)}; got {wallet!r}")
    delay_s = data.get("delay_s", 1.0)
    if not isinstance(delay_s, int | float) or isinstance(delay_s, bool) or not (
            0 <= delay_s <= 600):
        raise FaultSpecError(f"delay_s must be seconds between 0 and 600; got {delay_s!r}")
    status = data.get("status", 502)
    if status not in HTML_STATUSES:
        raise FaultSpecError(f"status must be one of {HTML_STATUSES}; got {status!r}")
    return_code = data.get("return_code", RATE_LIMITED)
    any_code = wallets.takes_any_code(endpoint)  # another wallet's result codes: any number
    if mode == "answer_code":
        return_code = _any_code(return_code, "return_code")
    elif not isinstance(return_code, int) or isinstance(return_code, bool) or (
            return_code >= 1 and not any_code):
        raise FaultSpecError(f"return_code must be a negative code (any result code of its own "
                             f"for another wallet's endpoint); got {return_code!r}")
    sub_return_code = data.get("sub_return_code")
    if sub_return_code is not None:
        sub_return_code = _any_code(sub_return_code, "sub_return_code")
    interval_ms = data.get("interval_ms", 1000)
    if not isinstance(interval_ms, int) or isinstance(interval_ms, bool) or not (
            1 <= interval_ms <= 60_000):
        raise FaultSpecError(f"interval_ms must be whole milliseconds between 1 and 60000; "
                             f"got {interval_ms!r}")
    size_mb = data.get("size_mb", 200)
    if not isinstance(size_mb, int) or isinstance(size_mb, bool) or not 1 <= size_mb <= 4096:
        raise FaultSpecError(f"size_mb must be whole MB between 1 and 4096; got {size_mb!r}")
    return FaultRule(endpoint=endpoint, mode=mode, count=count, wallet=wallet,
                     delay_s=float(delay_s), status=status, return_code=return_code,
                     sub_return_code=sub_return_code, interval_ms=interval_ms, size_mb=size_mb)


def _any_code(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not -CODE_LIMIT <= value <= \
            CODE_LIMIT:
        raise FaultSpecError(f"{name} must be a whole number between -{CODE_LIMIT} and "
                             f"{CODE_LIMIT}; got {value!r}")
    return value


class FaultBook:
    """The active rules, consumed first come first served; safe to use from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rules: list[FaultRule] = []
        self._sent: dict[str, int] = {}

    def record_sent(self, mode: str, size: int) -> None:
        """Bytes a streamed fault wrote (the last answer of that mode)."""
        with self._lock:
            self._sent[mode] = size

    def sent_bytes(self, mode: str) -> int | None:
        with self._lock:
            return self._sent.get(mode)

    def add(self, rule: FaultRule) -> None:
        with self._lock:
            self._rules.append(rule)

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()
            self._sent.clear()

    def rules(self) -> list[FaultRule]:
        with self._lock:
            return list(self._rules)

    def take(self, endpoint: str, wallet: str | None) -> FaultRule | None:
        """Consume one use of the first rule matching this endpoint and wallet.

        ``wallet=None`` asks for rules that apply whatever the wallet; a wallet id asks for rules
        bound to that wallet (the request's wallet is known only once its code is read).
        """
        with self._lock:
            for index, rule in enumerate(self._rules):
                if rule.endpoint not in ("*", endpoint) or rule.wallet != wallet:
                    continue
                if rule.count == 1:
                    del self._rules[index]
                elif rule.count > 1:
                    self._rules[index] = replace(rule, count=rule.count - 1)
                return rule
        return None


# -- answers with a bad body (the request was processed) -----------------------------------------
async def answer_with(request: web.Request, rule: FaultRule, answer: Mapping[str, Any],
                      book: FaultBook) -> web.StreamResponse:
    """The answer of one of ANSWER_BODY_MODES to a request already processed (committed)."""
    body = json.dumps(answer, ensure_ascii=False).encode("utf-8")
    if rule.mode == "duplicate_keys":
        again = "".join(f', "{key}": 1' for key in ("return_code", "sub_return_code",
                                                     "returncode") if key in answer)
        return web.Response(body=body[:-1] + again.encode() + b"}",
                            content_type="application/json")
    if rule.mode == "hostile_text":
        changed = {k: (HOSTILE_TEXT if k in _MESSAGE_KEYS else v) for k, v in answer.items()}
        return web.json_response(changed, dumps=functools.partial(json.dumps,
                                                                  ensure_ascii=False))
    if rule.mode == "slow_drip":
        return await _stream(request, rule, book, _drip(body, rule.interval_ms / 1000),
                             length=len(body))
    if rule.mode == "huge":
        return await _stream(request, rule, book, _huge(rule.size_mb))
    return await _stream(request, rule, book, _gzip_bomb(rule.size_mb), gzip=True)


async def _drip(body: bytes, interval_s: float) -> Any:
    for index in range(len(body)):
        if index:
            await asyncio.sleep(interval_s)
        yield body[index:index + 1]


async def _huge(size_mb: int) -> Any:
    yield b'{"return_code": 1, "sub_return_code": 1, "pad": "'
    chunk = b"x" * (64 * 1024)
    for _ in range(size_mb * 16):
        yield chunk
    yield b'"}'


async def _gzip_bomb(size_mb: int) -> Any:
    for part in _bomb(size_mb):
        yield part


@functools.lru_cache(maxsize=4)
def _bomb(size_mb: int) -> tuple[bytes, ...]:
    """gzip of a JSON answer padded with size_mb MB of spaces (about 1 kB per MB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: the gzip format
    parts = [packer.compress(b'{"return_code": 1, "sub_return_code": 1, "pad": "')]
    block = b" " * (1024 * 1024)
    parts += [packer.compress(block) for _ in range(size_mb)]
    parts.append(packer.compress(b'"}') + packer.flush())
    return tuple(p for p in parts if p)


async def _stream(request: web.Request, rule: FaultRule, book: FaultBook, parts: Any, *,
                  length: int | None = None, gzip: bool = False) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": "application/json"})
    if length is not None:
        response.content_length = length
    if gzip:
        response.headers["Content-Encoding"] = "gzip"
    sent = 0
    book.record_sent(rule.mode, 0)
    try:
        await response.prepare(request)
        async for part in parts:
            await response.write(part)
            sent += len(part)
            book.record_sent(rule.mode, sent)
        await response.write_eof()
    except (ConnectionError, asyncio.CancelledError, RuntimeError):
        pass  # the client hung up: what was written so far is recorded
    return response


def answer_body(rule: FaultRule, answer: Mapping[str, Any], generation: str | None) -> bytes:
    """The JSON body of `answer` altered as the answer_* rule says."""
    legacy = generation == "v001"
    rc_key = "returncode" if legacy else "return_code"
    zp_key = "zptransid" if legacy else "zp_trans_id"
    id_key = "apptransid" if legacy else "app_trans_id"
    data = dict(answer)
    if rule.mode == "answer_code":
        return json.dumps(code_answer(rule, answer, legacy), ensure_ascii=False).encode("utf-8")
    if rule.mode == "answer_amount" and isinstance(data.get("amount"), int):
        data["amount"] = int(data["amount"]) + 1000
    elif rule.mode == "answer_negative_amount" and isinstance(data.get("amount"), int):
        data["amount"] = -abs(int(data["amount"]))
    elif rule.mode == "answer_subcode":
        data[rc_key] = ANSWER_OK
        if not legacy:
            data["sub_return_code"] = rule.return_code
    elif rule.mode == "answer_no_zptransid":
        data.pop(zp_key, None)
    elif rule.mode == "answer_other_id" and id_key in data:
        data[id_key] = f"{data[id_key]}x"
    elif rule.mode == "answer_undocumented_code":
        data[rc_key] = 7
    text = json.dumps(data, ensure_ascii=False)
    if rule.mode == "answer_huge_code":
        marker = '"__huge__"'
        data[rc_key] = "__huge__"
        text = json.dumps(data, ensure_ascii=False).replace(marker, "9" * HUGE_DIGITS)
    return text.encode("utf-8")


def code_answer(rule: FaultRule, answer: Mapping[str, Any], legacy: bool) -> dict[str, Any]:
    """The answer of an answer_code rule: its code(s), words, and the request's id."""
    ids = {k: v for k, v in answer.items() if k in _ID_KEYS}
    text = f"answer code {rule.return_code}" + (
        f"/{rule.sub_return_code}" if rule.sub_return_code is not None else "")
    if legacy:
        return {"returncode": rule.return_code, "returnmessage": text, "isprocessing": False,
                **ids}
    data: dict[str, Any] = {"return_code": rule.return_code, "return_message": text,
                            "is_processing": False, **ids}
    if rule.sub_return_code is not None:
        data.update(sub_return_code=rule.sub_return_code, sub_return_message=text)
    return data
