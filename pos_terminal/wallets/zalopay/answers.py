"""Reading the service's JSON answers into results. Pure: no I/O.

Anything that cannot be trusted (a missing or mistyped field, an answer about another order)
raises UnreadableAnswer, which callers treat as "outcome unknown".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pos_terminal.base.reasons import Reason
from pos_terminal.text_safety import clean
from pos_terminal.wallets.code_table import CodeClass, CodeRow, Operation
from pos_terminal.wallets.errors import MismatchedAnswer, ServiceRefused, UnreadableAnswer

# the neutral JSON reading, under the names this module's callers have used
from pos_terminal.wallets.json_answers import loads_strict as loads_strict
from pos_terminal.wallets.json_answers import parse_json_body as parse_json_body

from .code_table import classify
from .constants import RC_DUPLICATE, RC_SUCCESS
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


#: How each class of the table reads as an answer's status (what it means for the payment is
#: results.MEANINGS').
_STATUS_OF: dict[CodeClass, AnswerStatus] = {
    CodeClass.PAID: AnswerStatus.SUCCEEDED,
    CodeClass.REFUNDED: AnswerStatus.SUCCEEDED,
    CodeClass.OK: AnswerStatus.SUCCEEDED,
    CodeClass.PROCESSING: AnswerStatus.PROCESSING,
    CodeClass.NOT_FOUND: AnswerStatus.NOT_FOUND,
    CodeClass.NOT_CHARGED: AnswerStatus.FAILED,
    CodeClass.NO_INFORMATION: AnswerStatus.UNDECIDED,
    CodeClass.MAY_HAVE_CHARGED: AnswerStatus.UNDECIDED,
}


def _row(data: Answer, generation: str, operation: Operation, rc: int,
         sub: int | None) -> CodeRow:
    """The table's row for this answer; a legacy answer that says it is still processing is
    processing whatever its code (its flag is the service's own word on the order)."""
    row = classify(generation, operation, rc, sub)
    if (generation == "v001" and row.cls is not CodeClass.PAID
            and row.cls is not CodeClass.REFUNDED
            and get_bool(data, wire(generation).names.is_processing)):
        return replace(row, cls=CodeClass.PROCESSING)
    return row


def payment_result(data: Answer, generation: str, app_trans_id: str, *,
                   operation: Operation = Operation.STATUS) -> PaymentResult:
    """Read a quick-pay (`operation` QUICK_PAY) or status-query answer, stamped with the
    request's ``app_trans_id``; what it proves is ZaloPay's code table's (code_table.py)."""
    names = wire(generation).names
    check_echo(data, names.app_trans_id, app_trans_id)
    rc, sub, code = _codes(data, generation)
    processing_flag = get_bool(data, names.is_processing)
    row = _row(data, generation, operation, rc, sub)
    duplicate = code == RC_DUPLICATE and row.cls is CodeClass.PROCESSING
    outcome = _STATUS_OF[row.cls]
    message = _message(data, generation)
    return PaymentResult(
        app_trans_id=app_trans_id,
        outcome=outcome,
        return_code=rc,
        sub_return_code=sub,
        message=message,
        why=describe(rc, sub, message, row=row),
        zp_trans_id=get_id(data, names.zp_trans_id),
        amount=get_int(data, names.amount, required=False),
        is_processing=processing_flag or (outcome is AnswerStatus.PROCESSING and not duplicate),
        raw=dict(data),
        duplicate=duplicate,
        cls=row.cls,
    )


def refund_result(data: Answer, generation: str, m_refund_id: str, *,
                  operation: Operation = Operation.REFUND_STATUS) -> RefundResult:
    """Read a refund (`operation` REFUND) or refund-status answer."""
    names = wire(generation).names
    check_echo(data, names.m_refund_id, m_refund_id)
    rc, sub, _ = _codes(data, generation)
    row = classify(generation, operation, rc, sub)
    message = _message(data, generation)
    return RefundResult(
        m_refund_id=m_refund_id,
        outcome=_STATUS_OF[row.cls],
        return_code=rc,
        sub_return_code=sub,
        message=message,
        why=describe(rc, sub, message, refund=True, row=row),
        refund_id=get_id(data, names.refund_id),
        raw=dict(data),
        cls=row.cls,
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
        # No order exists for the customer to pay (they never saw its page or QR): the
        # refusal's own words, never "still checking" (code_table: the hosted order's rows).
        row = classify(generation, Operation.GATEWAY_ORDER, rc, sub)
        why = (describe(rc, sub, message) if row.cls is CodeClass.NOT_CHARGED
               else Reason.of("gateway.not_created", code=deciding_code(rc, sub),
                              detail=message.strip().rstrip(".")))
        raise ServiceRefused(Reason.of("gateway.refused", why=why), rc, sub, message)
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
