"""Reading the service's JSON answers into results. Pure: no I/O.

Anything that cannot be trusted (a missing or mistyped field, an answer about another order)
raises UnreadableAnswer, which callers treat as "outcome unknown".
"""

from __future__ import annotations

from collections.abc import Mapping

from pos_terminal.base.reasons import Reason
from pos_terminal.text_safety import clean
from pos_terminal.wallets.errors import MismatchedAnswer, ServiceRefused, UnreadableAnswer

# the neutral JSON reading, under the names this module's callers have used
from pos_terminal.wallets.json_answers import loads_strict as loads_strict
from pos_terminal.wallets.json_answers import parse_json_body as parse_json_body

from .constants import (
    RC_DUPLICATE,
    RC_NOT_FOUND,
    RC_SUCCESS,
    RC_V001_PROCESSING,
    RC_V2_FAILED,
    RC_V2_PROCESSING,
)
from .fields import (
    BANK_FIELDS,
    BANK_LIST_BANKS,
    BANK_LIST_RETURN_CODE,
    BANK_LIST_RETURN_MESSAGE,
    wire,
)
from .results import (
    AnswerStatus,
    Bank,
    BankList,
    GatewayOrderResult,
    PaymentResult,
    RefundResult,
)
from .returncodes import deciding_code, describe, describe_bank_list_refusal

Answer = Mapping[str, object]

#: Numbers the journal (SQLite INTEGER) can hold; a code or amount outside is not an answer.
_INT_LIMIT = 2**63 - 1




def get_int(data: Answer, name: str, *, required: bool) -> int | None:
    if name not in data or data[name] is None:
        if required:
            raise UnreadableAnswer(f"the service's answer has no {name}")
        return None
    value = data[name]
    if isinstance(value, bool):
        raise UnreadableAnswer(f"the service's answer has a non-numeric {name}")
    number: int | None = None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and len(value) <= 40:
        try:
            number = int(value.strip())
        except ValueError:
            number = None
    if number is None:
        raise UnreadableAnswer(f"the service's answer has a non-numeric {name}")
    if not -_INT_LIMIT <= number <= _INT_LIMIT:
        raise UnreadableAnswer(f"the service's answer has an absurd {name} (a number of "
                               f"{number.bit_length()} bits)")
    return number


def get_text(data: Answer, name: str | None) -> str:
    if name is None:
        return ""
    value = data.get(name)
    if value is None:
        return ""
    if isinstance(value, str):
        return clean(value)  # no escape sequence of the service reaches a screen or a file
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise UnreadableAnswer(f"the service's answer has a non-text {name}")


def get_bool(data: Answer, name: str) -> bool:
    value = data.get(name)
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
        return value.strip().lower() in ("true", "1")
    raise UnreadableAnswer(f"the service's answer has a non-boolean {name}")


def get_id(data: Answer, name: str) -> str | None:
    """A service-issued id (int or string); 0 and "" mean none."""
    value = data.get(name)
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value) if value != 0 else None
    if isinstance(value, str):
        value = value.strip()
        return value if value and value != "0" else None
    raise UnreadableAnswer(f"the service's answer has a malformed {name}")


def check_echo(data: Answer, name: str, expected: str) -> None:
    """If the answer names its order, it must be ours: never apply another order's answer."""
    if name in data and data[name] is not None and str(data[name]) != expected:
        raise MismatchedAnswer(
            f"the service answered about {name} {data[name]!s} instead of {expected}; "
            "the answer was ignored"
        )


def _message(data: Answer, generation: str) -> str:
    names = wire(generation).names
    detailed = get_text(data, names.sub_return_message)
    return detailed or get_text(data, names.return_message)


def _codes(data: Answer, generation: str) -> tuple[int, int | None, int]:
    """(return code, sub code, the deciding code): v2 puts a failure's detail in the sub code."""
    names = wire(generation).names
    rc = get_int(data, names.return_code, required=True)
    assert rc is not None
    sub = (
        get_int(data, names.sub_return_code, required=False)
        if names.sub_return_code is not None
        else None
    )
    code = deciding_code(rc, sub)
    return rc, sub, code


def payment_result(data: Answer, generation: str, app_trans_id: str) -> PaymentResult:
    """Read a quick-pay or status-query answer, stamped with the request's ``app_trans_id``."""
    names = wire(generation).names
    check_echo(data, names.app_trans_id, app_trans_id)
    rc, sub, code = _codes(data, generation)
    processing_flag = get_bool(data, names.is_processing)
    duplicate = code == RC_DUPLICATE
    if rc == RC_SUCCESS:
        outcome = AnswerStatus.SUCCEEDED
    elif code == RC_NOT_FOUND:
        outcome = AnswerStatus.NOT_FOUND
    elif duplicate:
        outcome = AnswerStatus.PROCESSING  # the order exists: only a status query can tell
    elif generation == "v2":
        if rc == RC_V2_PROCESSING:
            outcome = AnswerStatus.PROCESSING
        elif rc == RC_V2_FAILED or rc < 0:
            outcome = AnswerStatus.FAILED
        elif processing_flag:
            outcome = AnswerStatus.PROCESSING
        else:
            raise UnreadableAnswer(f"the service answered with an unknown return_code {rc}")
    elif rc == RC_V001_PROCESSING or processing_flag or rc > RC_SUCCESS:
        # A positive legacy code that is neither success nor a documented failure is not a
        # failure: the charge may be in progress, so only a status query can tell.
        outcome = AnswerStatus.PROCESSING
    else:
        outcome = AnswerStatus.FAILED  # legacy: a code below 1 is a failure
    message = _message(data, generation)
    return PaymentResult(
        app_trans_id=app_trans_id,
        outcome=outcome,
        return_code=rc,
        sub_return_code=sub,
        message=message,
        why=describe(rc, sub, message),
        zp_trans_id=get_id(data, names.zp_trans_id),
        amount=get_int(data, names.amount, required=False),
        is_processing=processing_flag or (outcome is AnswerStatus.PROCESSING and not duplicate),
        raw=dict(data),
        duplicate=duplicate,
    )


def refund_result(data: Answer, generation: str, m_refund_id: str) -> RefundResult:
    names = wire(generation).names
    check_echo(data, names.m_refund_id, m_refund_id)
    rc, sub, code = _codes(data, generation)
    if rc == RC_SUCCESS:
        outcome = AnswerStatus.SUCCEEDED
    elif code == RC_NOT_FOUND:
        outcome = AnswerStatus.NOT_FOUND
    elif generation == "v2":
        if rc == RC_V2_PROCESSING:
            outcome = AnswerStatus.PROCESSING
        elif rc == RC_V2_FAILED or rc < 1:
            outcome = AnswerStatus.FAILED
        else:
            raise UnreadableAnswer(f"the service answered with an unknown return_code {rc}")
    else:
        outcome = AnswerStatus.PROCESSING if rc > 1 else AnswerStatus.FAILED
    message = _message(data, generation)
    return RefundResult(
        m_refund_id=m_refund_id,
        outcome=outcome,
        return_code=rc,
        sub_return_code=sub,
        message=message,
        why=describe(rc, sub, message, refund=True),
        refund_id=get_id(data, names.refund_id),
        raw=dict(data),
    )


def _bank(record: object, pmcid_key: int) -> Bank:
    if not isinstance(record, Mapping):
        raise UnreadableAnswer("the bank list holds an entry that is not an object")
    missing = [f for f in BANK_FIELDS if f not in record and f != "pmcid"]
    if missing:
        raise UnreadableAnswer(f"a bank in the bank list has no {', '.join(missing)}")
    pmcid = get_int(record, "pmcid", required=False)
    displayorder = get_int(record, "displayorder", required=True)
    minamount = get_int(record, "minamount", required=True)
    maxamount = get_int(record, "maxamount", required=True)
    assert displayorder is not None and minamount is not None and maxamount is not None
    return Bank(
        bankcode=get_text(record, "bankcode"),
        name=get_text(record, "name"),
        displayorder=displayorder,
        pmcid=pmcid_key if pmcid is None else pmcid,
        minamount=minamount,
        maxamount=maxamount,
    )


def bank_list(data: Answer) -> BankList:
    rc = get_int(data, BANK_LIST_RETURN_CODE, required=True)
    assert rc is not None
    message = get_text(data, BANK_LIST_RETURN_MESSAGE)
    if rc != RC_SUCCESS:
        raise ServiceRefused(describe_bank_list_refusal(rc, message), rc, None, message)
    banks = data.get(BANK_LIST_BANKS)
    if not isinstance(banks, Mapping):
        raise UnreadableAnswer("the bank list answer has no banks object")
    grouped: dict[int, list[Bank]] = {}
    for key, records in banks.items():
        try:
            pmcid = int(key)
        except (TypeError, ValueError):
            raise UnreadableAnswer(f"the bank list has a channel id {key!r} that is not a number")\
                from None
        if not isinstance(records, list):
            raise UnreadableAnswer(f"the bank list entry for channel {pmcid} is not a list")
        grouped[pmcid] = sorted(
            (_bank(r, pmcid) for r in records), key=lambda b: (b.displayorder, b.bankcode)
        )
    return BankList(banks_by_pmcid=dict(sorted(grouped.items())), raw=dict(data))


def gateway_order_result(data: Answer, generation: str, app_trans_id: str) -> GatewayOrderResult:
    names = wire(generation).names
    check_echo(data, names.app_trans_id, app_trans_id)
    rc, sub, _ = _codes(data, generation)
    message = _message(data, generation)
    if rc != RC_SUCCESS:
        raise ServiceRefused(
            Reason.of("gateway.refused", why=describe(rc, sub, message)), rc, sub, message
        )
    order_url = get_text(data, names.order_url) or None
    if order_url is None:
        raise UnreadableAnswer(f"the service accepted the order but sent no {names.order_url}")
    return GatewayOrderResult(
        app_trans_id=app_trans_id,
        return_code=rc,
        message=message,
        order_url=order_url,
        zp_trans_token=get_text(data, names.zp_trans_token) or None,
        qr_code=get_text(data, names.qr_code) or None,
        raw=dict(data),
    )
