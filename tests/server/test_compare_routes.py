"""Compare over REST against the fake OpenAI server on loopback: a finished run is kept with the
project, listed newest first and opened by its id; another workspace's key never sees it, and a
turn's trace is not a compare run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from forethought import Forethought
from forethought.domain import CheckPatterns
from forethought.llm import OpenAICompatibleModel
from forethought.llm.fake_server import Reply
from tests.projects.test_compare import Script, fake_coder
from tests.server.conftest import Api

BASE = "/v1/apps/project/subjects/wharf"
BREAKS = "```python\ndef log_totals(orders):\n    print('total', orders)\n```"


@pytest.fixture
def model(memory: Forethought) -> Iterator[OpenAICompatibleModel]:
    script = Script()
    script.baseline = lambda n: Reply(BREAKS)
    with fake_coder(memory, script) as chat:
        yield chat


def test_a_run_is_kept_listed_and_opened_by_its_id_and_only_by_its_workspace(
    api: Api, other: Api, memory: Forethought, model: OpenAICompatibleModel
) -> None:
    memory.retain(memory.scope("project", "wharf", workspace=api.workspace),
                  "Log through the structured logger; never call print() in application code.",
                  kind="convention", check=CheckPatterns(forbid=(r"\bprint\(",)))  # fmt: skip
    first = api.post(f"{BASE}/compare", json={"task": "Log each order total.", "repeat": 2})
    assert first.status_code == 200, first.text
    run = first.json()
    assert run["kind"] == "compare" and run["repeat"] == 2 and len(run["rounds"]) == 2
    assert run["summary"]["baseline"]["mean"] == 1.0 and run["summary"]["memory"]["mean"] == 0.0
    second = api.post(f"{BASE}/compare", json={"task": "Log each refund total.", "repeat": 1}).json()
    listed = api.get(f"{BASE}/compare/runs").json()
    assert [r["id"] for r in listed["items"]] == [second["id"], run["id"]] and listed["next_cursor"] is None
    page = api.get(f"{BASE}/compare/runs", params={"limit": 1}).json()
    assert [r["id"] for r in page["items"]] == [second["id"]] and page["next_cursor"]
    rest = api.get(f"{BASE}/compare/runs", params={"limit": 1, "cursor": page["next_cursor"]}).json()
    assert [r["id"] for r in rest["items"]] == [run["id"]] and rest["next_cursor"] is None
    opened = api.get(f"{BASE}/compare/runs/{run['id']}")
    assert opened.status_code == 200 and opened.json()["task"] == "Log each order total."
    assert other.get(f"{BASE}/compare/runs/{run['id']}").status_code == 404
    assert other.get(f"{BASE}/compare/runs").json()["items"] == []


def test_a_turns_trace_is_not_a_compare_run(api: Api) -> None:
    turn = api.post(f"{BASE}/turns", json={"message": "We always log through the structured logger."})
    assert turn.status_code == 200, turn.text
    trace_id = turn.json()["trace_id"]
    assert api.get(f"{BASE}/traces/{trace_id}").status_code == 200
    assert api.get(f"{BASE}/compare/runs/{trace_id}").status_code == 404
