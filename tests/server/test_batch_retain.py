"""POST .../records/batch: many memories in one request, validated whole, idempotent by external id."""

from __future__ import annotations

from forethought import Forethought
from forethought.server.schemas.records import MAX_BATCH
from tests.server.conftest import Api


def _batch(api: Api, items: list[dict[str, object]]) -> tuple[int, dict[str, object]]:
    response = api.post(api.url("project", "tillpoint", "/records/batch"), json={"items": items})
    return response.status_code, response.json()


def test_a_batch_is_stored_in_order_and_found_by_recall(api: Api, memory: Forethought) -> None:
    items = [
        {"text": f"Turn {i}: the ledger stores integer cents.", "external_id": f"t-{i}", "occurred_at": "2026-03-01"}
        for i in range(40)
    ]
    items.append({"text": "Deploys go through the release train.", "kind": "process", "tags": ["deploy"]})
    status, body = _batch(api, items)
    assert status == 201 and body["created"] == 41
    stored = body["items"]
    assert [i["record"]["statement"] for i in stored] == [i["text"] for i in items]
    assert stored[-1]["record"]["kind"] == "process" and stored[-1]["record"]["tags"] == ["deploy"]
    assert stored[0]["record"]["occurred_at"].startswith("2026-03-01")
    found = api.post(api.url("project", "tillpoint", "/recall"), json={"query": "release train deploys"}).json()
    assert found["hits"][0]["record"]["id"] == stored[-1]["record"]["id"]


def test_sending_a_batch_again_creates_nothing(api: Api) -> None:
    items = [{"text": f"Fact {i}.", "external_id": f"f-{i}"} for i in range(5)]
    first_status, first = _batch(api, items)
    again_status, again = _batch(api, items)
    assert (first_status, again_status) == (201, 200) and again["created"] == 0
    assert [i["record"]["id"] for i in again["items"]] == [i["record"]["id"] for i in first["items"]]  # type: ignore[index]
    assert all(not i["created"] for i in again["items"])  # type: ignore[index]


def test_one_bad_item_refuses_the_whole_batch_and_stores_nothing(api: Api, memory: Forethought) -> None:
    items: list[dict[str, object]] = [
        {"text": "A good fact."},
        {"text": "Dated wrongly.", "occurred_at": "yesterday-ish"},
    ]
    status, body = _batch(api, items)
    assert status == 422 and "occurred_at" in str(body)
    listed = api.get(api.url("project", "tillpoint", "/records")).json()
    assert listed["items"] == []


def test_a_batch_is_bounded(api: Api) -> None:
    status, body = _batch(api, [{"text": "x"}] * (MAX_BATCH + 1))
    assert status == 422 and body["error"]["code"] == "validation_error"
    assert _batch(api, [])[0] == 422
