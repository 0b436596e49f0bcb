"""Payments under the sale system's sale_ref: one charge per sale, whatever the POS retries."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from tests.api.conftest import Api, wait_until
from tests.conftest import ProcessingHold


def test_a_sale_is_charged_once_and_the_same_request_answers_with_its_payment(api: Api) -> None:
    code = api.wallet_code("an")
    body = {"amount": 25000, "sale_ref": "1001", "payment_code": code,
            "description": "two coffees"}
    first = api.post("/v1/payments", body)
    assert first.status_code == 200
    paid = first.json()
    assert (paid["state"], paid["outcome"], paid["exit_code"], paid["sale_ref"]) == (
        "succeeded", "paid", 0, "1001")
    again = api.post("/v1/payments", body).json()
    assert again["app_trans_id"] == paid["app_trans_id"]
    assert again["state"] == "succeeded"
    assert api.charges() == 1
    by_ref = api.get("/v1/payments", params={"sale_ref": "1001"}).json()
    by_id = api.get(f"/v1/payments/{paid['app_trans_id']}").json()
    assert by_ref["app_trans_id"] == by_id["app_trans_id"] == paid["app_trans_id"]
    assert by_id["sale_ref"] == "1001"


def test_the_same_sale_ref_with_another_amount_or_code_is_409_and_charges_nothing(
        api: Api) -> None:
    code = api.wallet_code("an")
    assert api.post("/v1/payments", {"amount": 25000, "sale_ref": "S-7",
                                     "payment_code": code}).status_code == 200
    other_amount = api.post("/v1/payments", {"amount": 26000, "sale_ref": "S-7",
                                             "payment_code": code})
    assert other_amount.status_code == 409
    assert other_amount.json()["error"]["code"] == "ref_conflict"
    # money in the one format of every message (base.money), never "25000 VND"
    assert "25.000 ₫" in other_amount.json()["error"]["message"]
    assert "26.000 ₫" in other_amount.json()["error"]["message"]
    other_code = api.post("/v1/payments", {"amount": 25000, "sale_ref": "S-7",
                                           "payment_code": api.wallet_code("an")})
    assert other_code.status_code == 409
    assert other_code.json()["error"]["code"] == "ref_conflict"
    assert api.charges() == 1


def test_three_identical_posts_in_parallel_make_one_charge(
        api: Api, hold_processing: ProcessingHold) -> None:
    body = {"amount": 40000, "sale_ref": "par-1", "payment_code": api.wallet_code("binh")}
    with ThreadPoolExecutor(3) as pool:
        futures = [pool.submit(api.post, "/v1/payments", body) for _ in range(3)]
        wait_until("the payment in flight", lambda: api.counter.payments.find_by_sale_ref("par-1"))
        hold_processing.release()
        answers = [f.result().json() for f in futures]
    assert {a["app_trans_id"] for a in answers} == {answers[0]["app_trans_id"]}
    assert {a["state"] for a in answers} == {"succeeded"}
    assert api.charges() == 1


def test_an_answer_lost_after_the_charge_then_a_retry_makes_one_charge(
        api: Api, hold_processing: ProcessingHold) -> None:
    body = {"amount": 55000, "sale_ref": "lost-1", "payment_code": api.wallet_code("binh")}
    with pytest.raises(requests.exceptions.ReadTimeout):  # the POS gives up on its answer
        api.post("/v1/payments", body, timeout=(5, 1.0))
    wait_until("the charge at the wallet", lambda: api.charges() == 1)
    hold_processing.release()
    retry = api.post("/v1/payments", body).json()
    assert retry["state"] == "succeeded" and retry["sale_ref"] == "lost-1"
    assert api.charges() == 1


def test_unknown_sale_ref_and_id_are_404(api: Api) -> None:
    missing = api.get("/v1/payments", params={"sale_ref": "never"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert api.get("/v1/payments/261125_nosuch_1").json()["error"]["code"] == "not_found"


def test_abort_while_following_abandons_and_the_late_charge_is_returned(
        api: Api, hold_processing: ProcessingHold) -> None:
    body = {"amount": 30000, "sale_ref": "ab-1", "payment_code": api.wallet_code("binh")}
    answers: list[dict[str, Any]] = []
    poster = threading.Thread(target=lambda: answers.append(api.post("/v1/payments",
                                                                     body).json()))
    poster.start()
    wait_until("the payment processing", lambda: getattr(
        api.counter.payments.find_by_sale_ref("ab-1"), "state", None) is not None and
        api.counter.payments.find_by_sale_ref("ab-1").state.value == "processing")
    row = api.counter.payments.find_by_sale_ref("ab-1")
    assert row is not None
    aborted = api.post(f"/v1/payments/{row.app_trans_id}/abort", None).json()
    poster.join(30)
    assert aborted["abandoned"] is True and aborted["state"] == "processing"
    assert answers[0]["app_trans_id"] == row.app_trans_id and answers[0]["abandoned"] is True
    hold_processing.release()

    def returned() -> bool:
        api.counter.reconcile()  # what the server's background reconciler does every 30 s
        return [(r.auto, r.state.value) for r in api.counter.refunds.list(row.app_trans_id)] == [
            (True, "refunded")]

    wait_until("the late charge returned automatically", returned)
    assert api.get("/v1/payments", params={"sale_ref": "ab-1"}).json()["state"] == "refunded"


def test_items_must_add_up_to_the_amount(api: Api) -> None:
    code = api.wallet_code("an")
    wrong = api.post("/v1/payments", {"amount": 30000, "sale_ref": "it-1", "payment_code": code,
                                      "items": [{"name": "Cà phê sữa", "price": 25000}]})
    assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "invalid_request"
    assert api.charges() == 0
    paid = api.post("/v1/payments", {"amount": 30000, "sale_ref": "it-1", "payment_code": code,
                                     "items": [{"name": "Cà phê sữa", "price": 15000,
                                                "quantity": 2}]}).json()
    assert paid["state"] == "succeeded"
    assert [(i["itemname"], i["itemprice"], i["itemquantity"]) for i in paid["items"]] == [
        ("Cà phê sữa", 15000, 2)]
