"""`pay` refuses a bad description or bad items by the checkout's own rules
(checkout/validation.py), before the customer is asked to scan: one rule each, a reason the
CLI renders with its options' names (--description, --item, --amount), in the language asked,
and the same reason in the sale's own words from Checkout.pay for every other front end."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pos_terminal.base.reasons import render
from pos_terminal.checkout import InvalidPayment
from pos_terminal.checkout.validation import check_description, check_items
from pos_terminal.config import Settings
from pos_terminal.counter import Counter
from pos_terminal.counter.types import Item, description_problem, items_problem
from tests.checkout.conftest import quick_pay_requests, wallet_code

TEA = '{"itemid":"1","itemname":"Tea","itemprice":12000,"itemquantity":2}'


@pytest.mark.parametrize(("args", "field", "reason", "vi"), [
    (["--description", "two\nlines"], "description",
     description_problem("two\nlines").with_params(field="--description"),  # type: ignore[union-attr]
     "--description có ký tự điều khiển (U+000A"),
    (["--item", TEA], "item",
     items_problem([Item("1", "Tea", 12_000, 2)], 25_000).with_params(  # type: ignore[union-attr]
         field="--item", amount_field="--amount"),
     "Tổng các giá trị --item là 24.000 ₫ nhưng --amount là 25.000 ₫"),
])
def test_pay_words_the_checkouts_rule_with_its_options(
        cli: Any, emulator: Any, args: list[str], field: str, reason: Any, vi: str) -> None:
    for language in ("en", "vi"):
        done = cli("pay", "--amount", "25000", "--code", wallet_code(emulator, "an"), *args,
                   "--json", "--language", language)
        assert done.exit_code == 2, done.stderr
        data = json.loads(done.stdout)
        assert data["field"] == field
        # the CLI's sentence is the rule's reason, rendered with the option's names
        assert data["message"] == render(reason, language)
    assert vi in data["message"]
    assert "--item values add up to 24.000 ₫ but --amount is 25.000 ₫" in render(
        items_problem([Item("1", "Tea", 12_000, 2)], 25_000).with_params(  # type: ignore[union-attr]
            field="--item", amount_field="--amount"), "en")
    assert quick_pay_requests(emulator) == 0


def test_the_same_rules_refuse_in_the_sales_own_words_from_the_checkout(
        settings: Settings, emulator: Any) -> None:
    with pytest.raises(InvalidPayment) as bad_text:
        check_description("a\tb")
    assert bad_text.value.field == "description"
    assert bad_text.value.code == "description.control_character"
    assert render(bad_text.value.why, "en").startswith(
        "The description holds a control character (U+0009")
    assert render(bad_text.value.why, "vi").startswith("Mô tả có ký tự điều khiển (U+0009")
    with pytest.raises(InvalidPayment) as wrong_sum:
        check_items([Item("1", "Tea", 12_000, 2)], 25_000)
    assert (wrong_sum.value.field, wrong_sum.value.code) == ("items", "items.total")
    assert render(wrong_sum.value.why, "en").startswith(
        "The items add up to 24.000 ₫ but the amount is 25.000 ₫.")
    with Counter(settings) as co, pytest.raises(InvalidPayment) as refused:
        co.payments.pay(25_000, wallet_code(emulator, "an"), description="two\nlines")
    assert refused.value.why == description_problem("two\nlines")
    assert quick_pay_requests(emulator) == 0
