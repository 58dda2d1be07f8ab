"""Regressions for what the schema fuzzer (tests/reliability/test_fuzz.py) found, one test each."""

from __future__ import annotations

import pytest

from tests.server.conftest import Api

NOT_UTF8 = b'{"text": "\xff\xfe\x80 caf\xe9"}'


@pytest.mark.parametrize("path", ["/records", "/recall", "/turns", "/inbox/approve-all", "/sessions"])
def test_a_body_that_is_not_utf8_is_a_422_like_any_body_that_is_not_json(api: Api, path: str) -> None:
    # It was an undocumented 400 ("There was an error parsing the body") from the framework.
    response = api.post(
        api.url("project", "tillpoint", path), content=NOT_UTF8, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert error["details"] == [{"loc": ["body"], "msg": "the body is not UTF-8 JSON text", "type": "json_invalid"}]
