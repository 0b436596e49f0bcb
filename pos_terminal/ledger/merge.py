"""Forward-only merge of a journal's row into the ledger's copy (pure functions).

The journal is the authority on its own rows, but the ledger never moves a row out of a final
state: a final row that a journal later shows otherwise (a journal restored from an older copy
and settled differently, a copy of a journal on a second counter) is kept as the ledger has it
and the difference is reported as a disagreement, field by field. Two moves out of FAILED are the
journal's own and taken: a late charge (shipped `late`) and a flagged row settled by a person.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FINAL_PAYMENT = frozenset({"succeeded", "failed", "refunded"})
FINAL_REFUND = frozenset({"refunded", "failed"})


@dataclass(frozen=True)
class Problem:
    field: str
    ledger_value: Any
    journal_value: Any
    note: str


@dataclass(frozen=True)
class Verdict:
    apply: bool
    problems: tuple[Problem, ...] = ()


def _identity(existing: Mapping[str, Any], incoming: Mapping[str, Any], terminal_id: str,
              fields: tuple[str, ...], what: str) -> list[Problem]:
    if existing["terminal_id"] != terminal_id:
        return [Problem("terminal_id", existing["terminal_id"], terminal_id,
                        f"the same {what} was shipped by two terminals (a copied journal?)")]
    return [Problem(f, existing[f], incoming[f], f"the {f} of a {what} never changes")
            for f in fields if existing[f] != incoming[f]]


def _z_report_moved(existing: Mapping[str, Any], incoming: Mapping[str, Any],
                    what: str) -> list[Problem]:
    """A row the ledger has in a Z report must stay in that one."""
    if existing["z_number"] is None or incoming["z_number"] == existing["z_number"]:
        return []
    return [Problem("z_number", existing["z_number"], incoming["z_number"],
                    f"a {what} in a Z report moved to another (or none)")]


def _verdict(existing: Mapping[str, Any], incoming: Mapping[str, Any],
             problems: list[Problem]) -> Verdict:
    """Any problem: kept as it is and reported; otherwise the newer row wins."""
    if problems:
        return Verdict(False, tuple(problems))
    return Verdict(incoming["updated_ms"] >= existing["updated_ms"])


def settled_by_a_person(existing: Mapping[str, Any], incoming: Mapping[str, Any]) -> bool:
    """A failed payment flagged for review that a person settled as paid (the journal's
    `failed --override_paid--> succeeded`, which clears the flag): the one move out of FAILED
    the ledger takes (its trigger, schema version 6, and the upsert's guard say the same)."""
    return (existing["state"] == "failed" and bool(existing.get("needs_review"))
            and incoming["state"] == "succeeded" and not incoming.get("needs_review"))


def charged_late(existing: Mapping[str, Any], incoming: Mapping[str, Any]) -> bool:
    """A failed payment the wallet charged after all (the journal's `failed --late_success-->
    succeeded`, which sets `late`), maybe already returned (refunded): the ledger takes it only
    from a row shipped `late` (ledger schema version 7; its trigger and the upsert's guard say
    the same). A row without `late` (a journal restored from an older copy and settled
    differently, a payload of a journal before version 15) stays a disagreement."""
    return (existing["state"] == "failed" and not existing.get("late")
            and incoming["state"] in ("succeeded", "refunded") and bool(incoming.get("late")))


def decide_payment(existing: Mapping[str, Any] | None, incoming: Mapping[str, Any],
                   terminal_id: str) -> Verdict:
    if existing is None:
        return Verdict(True)
    problems = _identity(existing, incoming, terminal_id, ("amount", "kind", "created_ms"),
                         "payment")
    if not problems and existing["state"] in FINAL_PAYMENT:
        state = existing["state"]
        allowed = {state, "refunded"} if state == "succeeded" else {state}
        if settled_by_a_person(existing, incoming):
            allowed.add("succeeded")
        if charged_late(existing, incoming):
            allowed.add(incoming["state"])
        if existing.get("late") and not incoming.get("late"):
            problems.append(Problem("late", True, False,
                                    "a payment charged late shows not late in a journal"))
        if incoming["state"] not in allowed:
            problems.append(Problem("state", state, incoming["state"],
                                    f"a {state} payment shows {incoming['state']} in a journal"))
        if existing["zp_trans_id"] and incoming["zp_trans_id"] != existing["zp_trans_id"]:
            problems.append(Problem("zp_trans_id", existing["zp_trans_id"],
                                    incoming["zp_trans_id"],
                                    "a settled payment's wallet transaction changed"))
        if incoming["refunded_amount"] < existing["refunded_amount"]:
            problems.append(Problem("refunded_amount", existing["refunded_amount"],
                                    incoming["refunded_amount"],
                                    "a journal shows less refunded than the ledger has"))
        problems += _z_report_moved(existing, incoming, "payment")
    return _verdict(existing, incoming, problems)


def decide_refund(existing: Mapping[str, Any] | None, incoming: Mapping[str, Any],
                  terminal_id: str) -> Verdict:
    if existing is None:
        return Verdict(True)
    problems = _identity(existing, incoming, terminal_id, ("amount", "app_trans_id", "created_ms"),
                         "refund")
    if not problems and existing["state"] in FINAL_REFUND:
        if incoming["state"] != existing["state"]:
            problems.append(Problem("state", existing["state"], incoming["state"],
                                    f"a {existing['state']} refund shows {incoming['state']} "
                                    "in a journal"))
        if existing["refund_id"] and incoming["refund_id"] != existing["refund_id"]:
            problems.append(Problem("refund_id", existing["refund_id"], incoming["refund_id"],
                                    "a settled refund's wallet refund id changed"))
        problems += _z_report_moved(existing, incoming, "refund")
    return _verdict(existing, incoming, problems)


__all__ = ["FINAL_PAYMENT", "FINAL_REFUND", "Problem", "Verdict", "decide_payment", "decide_refund"]
