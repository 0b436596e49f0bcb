"""examples/pos_client.py against a real server: a sale, a lost answer retried under the same
sale_ref (one charge), a refund, a receipt, a refusal as TerminalError."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from tests.api.conftest import Api
from tests.conftest import ProcessingHold
from tests.processes import REPO


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pos_client", REPO / "examples" /
                                                  "pos_client.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pos_client"] = module
    spec.loader.exec_module(module)
    return module


def test_the_example_client_retries_a_lost_answer_without_charging_twice(
        api: Api, hold_processing: ProcessingHold) -> None:
    client_module = example()
    impatient = client_module.TerminalClient(api.url, api.token, timeout_s=1.0, tries=2)
    code = api.wallet_code("binh")
    with pytest.raises(client_module.LOST):  # both tries time out while it processes
        impatient.pay("ex-1", 64000, code)
    assert api.charges() == 1
    hold_processing.release()
    client = client_module.TerminalClient(api.url, api.token)
    paid = client.pay("ex-1", 64000, code)
    assert paid["outcome"] == "paid" and client.payment("ex-1")["app_trans_id"] == (
        paid["app_trans_id"])
    assert api.charges() == 1
    refund = client.refund(paid["app_trans_id"], 4000, "ex-1-r1")
    assert refund["state"] == "refunded" and refund["refund_ref"] == "ex-1-r1"
    assert any("64.000" in line for line in client.receipt(paid["app_trans_id"]))
    assert client.x_report()["sales_count"] == 1
    with pytest.raises(client_module.TerminalError) as refused:
        client.pay("ex-1", 65000, code)
    assert (refused.value.status, refused.value.code) == (409, "ref_conflict")
