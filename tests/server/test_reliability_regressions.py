"""Regressions for what the reliability suite (tests/reliability: the schema fuzzer and the hostile
input tests) found, one test each."""

from __future__ import annotations

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from forethought import Forethought
from forethought.server import ServerSettings, create_app
from tests.server.conftest import Api

NOT_UTF8 = b'{"text": "\xff\xfe\x80 caf\xe9"}'
JSON = {"Content-Type": "application/json"}


@pytest.mark.parametrize("path", ["/records", "/recall", "/turns", "/inbox/approve-all", "/sessions"])
def test_a_body_that_is_not_utf8_is_a_422_like_any_body_that_is_not_json(api: Api, path: str) -> None:
    # It was an undocumented 400 ("There was an error parsing the body") from the framework.
    response = api.post(api.url("project", "tillpoint", path), content=NOT_UTF8, headers=JSON)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert error["details"] == [{"loc": ["body"], "msg": "the body is not UTF-8 JSON text", "type": "json_invalid"}]


def test_an_integer_of_thousands_of_digits_is_a_422_too(api: Api) -> None:
    body = b'{"query": "tea", "k": ' + b"9" * 5000 + b"}"  # json.loads refuses it with a ValueError
    response = api.post(api.url("project", "tillpoint", "/recall"), content=body, headers=JSON)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"] == "the body is not JSON this server can read"


@pytest.mark.parametrize(
    ("subject", "reason"),
    [("a%00b", "contains a NUL byte"), ("a%07b", "contains control characters"), ("s" * 300, "over the limit of 200")],
)
def test_an_invalid_subject_id_says_what_is_wrong(api: Api, subject: str, reason: str) -> None:
    # The message was the last line of pydantic's error text: its documentation link.
    response = api.get(api.url("project", subject, "/records"))
    assert response.status_code == 422, response.text
    message = response.json()["error"]["message"]
    assert message.startswith("subject_id: ") and reason in message and "pydantic" not in message


def test_the_worker_pool_is_sized_from_the_settings(memory: Forethought) -> None:
    # bench/load.py: anyio's default of 40 threads thrashed under 16 clients on 2 CPUs.
    assert ServerSettings.load({"FORETHOUGHT_SERVER_THREADS": "3"}).worker_threads == 3
    assert ServerSettings().worker_threads >= 2
    app = create_app(memory, ServerSettings(worker_threads=3))

    @app.get("/pool-size")
    async def pool_size() -> int:
        return int(anyio.to_thread.current_default_thread_limiter().total_tokens)

    with TestClient(app) as client:  # the lifespan runs
        assert client.get("/pool-size").json() == 3
