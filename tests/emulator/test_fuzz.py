"""Whatever arrives, the emulator answers a well-formed refusal (never a 500 or a stack trace)."""

from __future__ import annotations

from typing import Any

import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.emulator.wirehelp import QUERY_PATH, QUICK_PAY_PATH

FIELDS = {
    "v2": ["app_id", "app_trans_id", "app_user", "app_time", "amount", "embed_data", "item",
           "description", "payment_code", "mac"],
    "v001": ["appid", "apptransid", "appuser", "apptime", "amount", "embeddata", "item",
             "description", "paymentcode", "mac"],
}
TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["", "2553", "0", "-1", "1e3", "{}", "[]", "[{}]", "null", "A" * 3000,
                     "===", "+/+/", "\x00"]),
)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(generation=st.sampled_from(["v2", "v001"]), endpoint=st.sampled_from(["pay", "query"]),
       values=st.dictionaries(st.integers(0, 9), TEXT, max_size=10))
def test_random_forms_get_a_json_refusal(emulator: Any, generation: str, endpoint: str,
                                         values: dict[int, str]) -> None:
    form = {FIELDS[generation][index]: value for index, value in values.items()}
    path = (QUICK_PAY_PATH if endpoint == "pay" else QUERY_PATH)[generation]
    response = requests.post(emulator.base_url + path, data=form, timeout=10)
    assert response.status_code == 200
    answer = response.json()
    if generation == "v2":
        assert answer["return_code"] == 2 and answer["sub_return_code"] < 0
        assert answer["sub_return_message"]
    else:
        assert answer["returncode"] < 0 and answer["returnmessage"]
