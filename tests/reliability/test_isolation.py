"""Workspace isolation across every route: with workspace A's key, each route of the app is called
with everything of workspace B a client could name — B's subjects (one named like A's own), record
ids and handles, candidates, trace, session and key ids, B's external id, B's list cursor — and
B's canary text never comes back, and nothing of B changes (B's data is byte-identical after).

The routes are enumerated from the app itself, so a new route without an isolation case here fails
`test_every_route_has_an_isolation_case`. The server-rendered web workspace (`/` and `/web...`) is
covered by tests/web; the MCP endpoint by tests/mcp.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import BaseRoute

from forethought import Forethought, Scope, Status
from forethought.projects.org import ORG
from forethought.server import ServerSettings, create_app
from tests.conftest import TEMPLATE

CANARY = "QX7CANARY"  # in every text of B, in no request of A
A, B = "acme", "globex"
# Covered elsewhere, by path: (prefix, where). Everything else must have a case below.
ELSEWHERE = [("/web", "tests/web: the web workspace"), ("/", "tests/web: the redirect to it")]
TRANSCRIPT = (
    "Customer: The QuickBooks sync fails with error 4417 since the March update.\n"
    "Agent: Did clearing the browser cache fix it?\n"
    "Customer: No, clearing the cache did not fix the QuickBooks sync.\n"
)
B_SPACES = [("project", "tillpoint"), ("project", "b-only"), ("support", "acme-corp")]
B_ORG = ("project", ORG)  # B's organisation rule set: never a subject A names, but snapshotted


@dataclass
class Seeded:
    a_key: str
    b_key: str
    b_ids: dict[str, list[str]]  # path parameter -> B's values
    b_external_id: str
    b_cursor: str
    a_candidate: str  # A's own candidate, for requests that pair it with B's ids
    b_active: str


def _key(memory: Forethought, workspace: str, app: str, subject: str) -> Scope:
    return memory.scope(app, subject, workspace=workspace)


def _seed(memory: Forethought) -> Seeded:
    ids: dict[str, list[str]] = {"record_id": [], "trace_id": [], "session_id": [], "key_id": []}
    for app, subject in B_SPACES:
        key = _key(memory, B, app, subject)
        active = memory.retain(
            key, f"{CANARY} The vault combination is 4417 orchid.", external_id=f"b-{subject}", tags=("vault",)
        ).record
        candidate = memory.retain(key, f"{CANARY} Deploys happen on Tuesdays.", status=Status.CANDIDATE).record
        ids["record_id"] += [active.id, active.handle, candidate.id, candidate.handle]
        turn = memory.turn(key, f"{CANARY} what is the vault combination?")
        ids["trace_id"].append(turn.trace_id)
        ids["session_id"].append(turn.session_id)
        submitted = memory.submit_session(key, TRANSCRIPT.replace("error", f"{CANARY} error"), title=CANARY)
        ids["session_id"].append(submitted.session.id)
        ids["record_id"] += [item.record.id for item in submitted.result.submission.items]
    b_org = _key(memory, B, *B_ORG)
    org_rule = memory.retain(b_org, f"{CANARY} Never log the vault combination.", kind="decision").record
    memory.note_review(b_org, org_rule.id, "overridden", reason=f"{CANARY} legacy vault", subject="tillpoint")
    ids["record_id"] += [org_rule.id, org_rule.handle]
    for i in range(2):
        ids["key_id"].append(memory.create_api_key(B, name=f"{CANARY}-{i}")[0].id)
    _, b_key = memory.create_api_key(B, name=f"{CANARY}-main", role="admin")
    tillpoint = _key(memory, B, "project", "tillpoint")
    b_active = memory.list_records(tillpoint, limit=1)[0].id
    # A holds a subject of the same name, with its own records and a candidate.
    a_space = _key(memory, A, "project", "tillpoint")
    memory.retain(a_space, "Use Postgres for the ledger service.", kind="decision")
    a_candidate = memory.retain(a_space, "Releases are tagged on Fridays.", status=Status.CANDIDATE).record.id
    _, a_key = memory.create_api_key(A, name="a-main", role="admin")
    return Seeded(
        a_key=a_key,
        b_key=b_key,
        b_ids=ids,
        b_external_id="b-tillpoint",
        b_cursor="",  # filled from B's own listing, over HTTP
        a_candidate=a_candidate,
        b_active=b_active,
    )


Json = dict[str, Any] | None
Bodies = Callable[[Seeded], Sequence[Json]]
Queries = Callable[[Seeded], Sequence[dict[str, Any]]]


def _none(_: Seeded) -> Sequence[Json]:
    return [None]


def _plain(_: Seeded) -> Sequence[dict[str, Any]]:
    return [{}]


def _paged(s: Seeded) -> Sequence[dict[str, Any]]:
    return [{}, {"cursor": s.b_cursor}, {"limit": 200}]


@dataclass(frozen=True)
class Case:
    bodies: Bodies = _none
    queries: Queries = _plain


S = "/v1/apps/{app}/subjects/{subject_id}"
QUESTION = "what is the vault combination orchid 4417"
CASES: dict[str, Case] = {
    "GET /health": Case(),
    "GET /ready": Case(),
    "GET /metrics": Case(),
    "GET /v1/workspace": Case(),
    "GET /v1/keys": Case(queries=_paged),
    "POST /v1/keys": Case(bodies=lambda s: [None, {"name": "a-probe"}]),
    "DELETE /v1/keys/{key_id}": Case(),
    "GET /v1/apps/{app}/subjects": Case(queries=lambda s: [{}, {"cursor": "dGlsbHBvaW50"}]),
    f"GET {S}/records": Case(
        queries=lambda s: [{}, {"cursor": s.b_cursor}, {"status": [st.value for st in Status]}, {"kind": "note"}]
    ),
    f"POST {S}/records": Case(
        bodies=lambda s: [
            {"text": "A retains its own note.", "external_id": s.b_external_id},
            {"text": "A retains a candidate.", "status": "candidate", "external_id": "b-b-only"},
        ]
    ),
    f"POST {S}/records/batch": Case(
        bodies=lambda s: [
            {"items": [{"text": "A retains a batch note.", "external_id": s.b_external_id}, {"text": "And another."}]}
        ]
    ),
    f"GET {S}/records/{{record_id}}": Case(),
    f"GET {S}/records/{{record_id}}/history": Case(),
    f"POST {S}/records/{{record_id}}/supersede": Case(bodies=lambda s: [{"text": "A replaces it."}]),
    f"POST {S}/records/{{record_id}}/retract": Case(bodies=lambda s: [{"why": "A says it is wrong."}]),
    f"DELETE {S}/records/{{record_id}}": Case(queries=lambda s: [{}, {"redact_sources": "true"}]),
    f"DELETE {S}/sessions/{{session_id}}": Case(),
    # A erasing "its" subject of the same name erases A's own, never B's (the snapshot says so).
    "DELETE /v1/apps/{app}/subjects/{subject_id}": Case(
        queries=lambda s: [{}, *({"confirm": subject} for _, subject in B_SPACES)]
    ),
    f"GET {S}/inbox": Case(queries=_paged),
    f"POST {S}/inbox/approve-all": Case(bodies=lambda s: [None, {"high_confidence": True}]),
    f"POST {S}/inbox/{{record_id}}/approve": Case(bodies=lambda s: [None, {"conflict": "supersede"}]),
    f"POST {S}/inbox/{{record_id}}/supersede": Case(bodies=lambda s: [{"target": s.b_active}]),
    f"POST {S}/inbox/{{record_id}}/edit": Case(bodies=lambda s: [{"text": "A corrects it."}]),
    f"POST {S}/inbox/{{record_id}}/reject": Case(bodies=lambda s: [None]),
    f"POST {S}/inbox/from-excerpt": Case(
        bodies=lambda s: [
            {"session_id": i, "turn_index": n, "quote": "vault", "kind": kind}
            for i in s.b_ids["session_id"]
            for n in (0, 1)
            for kind in (None, "note")
        ]
    ),
    f"POST {S}/recall": Case(
        bodies=lambda s: [
            {"query": QUESTION},
            {"query": "vault", "tags": ["vault"], "statuses": [st.value for st in Status]},
            {"query": "vault", "as_of": "2999-01-01"},
        ]
    ),
    f"POST {S}/brief": Case(bodies=lambda s: [{"task": QUESTION}]),
    f"POST {S}/check": Case(bodies=lambda s: [{"draft": "The vault combination is 1234 orchid."}]),
    f"POST {S}/ask": Case(bodies=lambda s: [{"question": QUESTION}]),
    f"POST {S}/turns": Case(
        bodies=lambda s: [
            {"message": QUESTION},
            *({"message": QUESTION, "session_id": i} for i in s.b_ids["session_id"]),
        ]
    ),
    f"GET {S}/sessions": Case(queries=_paged),
    f"POST {S}/sessions": Case(bodies=lambda s: [{"title": "A's import", "text": TRANSCRIPT}]),
    f"GET {S}/sessions/{{session_id}}": Case(),
    f"GET {S}/traces": Case(queries=_paged),
    f"GET {S}/traces/{{trace_id}}": Case(),
    f"GET {S}/audit": Case(queries=lambda s: [{}, *({"record_id": r} for r in s.b_ids["record_id"])]),
    # The project app's routes: A names B's subjects and B's record ids; A's own spaces answer.
    f"GET {S}/rulebook": Case(queries=lambda s: [{}, {"format": "agents"}, {"as_of": "2999-01-01"}]),
    f"GET {S}/rulebook/changes": Case(
        queries=lambda s: [{"since": "2000-01-01"}, {"since": "2000-01-01", "limit": 200}]
    ),
    f"GET {S}/stale": Case(queries=lambda s: [{}, {"days": 1}]),
    f"POST {S}/stale/{{record_id}}/confirm": Case(bodies=lambda s: [None, {"note": "A confirms it."}]),
    f"POST {S}/stale/{{record_id}}/retire": Case(bodies=lambda s: [{"why": "A retires it."}]),
    f"POST {S}/documents": Case(
        bodies=lambda s: [{"files": [{"path": "AGENTS.md", "text": "- Always keep the ledger in Postgres.\n"}]}]
    ),
    f"POST {S}/eval": Case(
        bodies=lambda s: [
            {"tasks": [{"id": f"t{i}", "task": QUESTION, "must": [r]} for i, r in enumerate(s.b_ids["record_id"][:8])]}
        ]
    ),
    f"POST {S}/compare": Case(bodies=lambda s: [{"task": QUESTION}]),
    f"GET {S}/compare/runs": Case(queries=_paged),
    f"GET {S}/compare/runs/{{trace_id}}": Case(),
    # The organisation rule set: A's own, whatever B's holds; a project's overrides name A's rules only.
    "GET /v1/apps/{app}/organisation/rulebook": Case(
        queries=lambda s: [{}, {"format": "agents"}, {"as_of": "2999-01-01"}]
    ),
    "POST /v1/apps/{app}/organisation/documents": Case(
        bodies=lambda s: [{"files": [{"path": "AGENTS.md", "text": "- Never log the vault combination.\n"}]}]
    ),
    f"GET {S}/organisation/overrides": Case(queries=_paged),
    f"POST {S}/organisation/overrides/{{record_id}}": Case(bodies=lambda s: [{"why": "A overrides it."}]),
    f"POST {S}/organisation/overrides/{{record_id}}/restore": Case(bodies=lambda s: [{"why": "A restores it."}]),
}


def _routes(routes: Sequence[BaseRoute]) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif (inner := getattr(route, "original_router", None)) is not None:  # a router FastAPI includes lazily
            yield from _routes(inner.routes)


def _labels(app: FastAPI) -> dict[str, str]:
    """Every route's "METHOD path" -> where its isolation is tested ("here" or elsewhere)."""
    labels: dict[str, str] = {}
    for route in _routes(app.routes):
        where = next((w for prefix, w in ELSEWHERE if route.path == prefix or route.path.startswith(prefix + "/")), "")
        for method in sorted(route.methods or ()):
            labels[f"{method} {route.path}"] = where or "here"
    return labels


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[TestClient, Forethought, Seeded]]:
    """Both workspaces on each store backend in turn (a SQLite file, then a PostgreSQL database)."""
    db: Path | str = tmp_path_factory.mktemp("isolation") / "memory.db"
    if request.param == "postgresql":
        db = request.getfixturevalue("postgres_server").create_database(template=TEMPLATE)
    with Forethought.open(db, embedder="hashing") as memory:
        seeded = _seed(memory)
        with TestClient(create_app(memory, ServerSettings(rate_per_second=0)), raise_server_exceptions=False) as client:
            page = client.get(
                "/v1/apps/project/subjects/tillpoint/records?limit=1&status=active&status=candidate",
                headers={"Authorization": f"Bearer {seeded.b_key}"},
            ).json()
            assert page["next_cursor"], page
            seeded.b_cursor = page["next_cursor"]
            yield client, memory, seeded


def test_every_route_has_an_isolation_case(world: tuple[TestClient, Forethought, Seeded]) -> None:
    client, _, _ = world
    labels = _labels(client.app)  # type: ignore[arg-type]
    here = {label for label, where in labels.items() if where == "here"}
    assert sorted(here - set(CASES)) == [], "routes without an isolation case: add them to CASES"
    assert sorted(set(CASES) - here) == [], "cases for routes that no longer exist"
    assert any(where.startswith("tests/web") for where in labels.values())  # the exclusion is not vacuous


def _snapshot(memory: Forethought, seeded: Seeded) -> str:
    """Everything of B, serialised: records of every status, audit trail, sessions, traces, keys."""
    parts: list[Any] = []
    for app, subject in [*B_SPACES, B_ORG]:
        key = _key(memory, B, app, subject)
        records = memory.list_records(key, statuses=list(Status), limit=10_000)
        parts.append([r.model_dump(mode="json") for r in records])
        parts.append([e.model_dump(mode="json") for e in memory.audit_events(key, limit=10_000)])
        parts.append([s.model_dump(mode="json") for s in memory.list_sessions(key, limit=10_000)])
        parts.append([t.model_dump(mode="json") for t in memory.list_traces(key, limit=10_000)])
    parts.append([k.model_dump(mode="json") for k in memory.list_api_keys(B)])
    parts.append([s.model_dump(mode="json") for s in memory.list_spaces(B)])
    return json.dumps(parts, sort_keys=True, default=str)


def _requests(label: str, case: Case, seeded: Seeded) -> Iterator[tuple[str, str, dict[str, Any], Json]]:
    method, template = label.split(" ", 1)
    names = re.findall(r"{(\w+)}", template)
    values: dict[str, list[str]] = {**seeded.b_ids}
    if "subject_id" in names:
        values["record_id"] = [*values["record_id"], seeded.a_candidate]  # A's own id, paired with B's in bodies
    spaces = [(app, subject) for app, subject in B_SPACES] if "app" in names else [("", "")]
    for (app, subject), *rest in itertools.product(
        spaces, *(values[n] for n in names if n not in ("app", "subject_id"))
    ):
        params = dict(zip([n for n in names if n not in ("app", "subject_id")], rest, strict=True))
        path = template.format(app=app, subject_id=subject, **params) if names else template
        for query, body in itertools.product(case.queries(seeded), case.bodies(seeded)):
            yield method, path, query, body


def test_a_key_of_workspace_a_reaches_nothing_of_b(world: tuple[TestClient, Forethought, Seeded]) -> None:
    client, memory, seeded = world
    before = _snapshot(memory, seeded)
    assert CANARY in before
    headers = {"Authorization": f"Bearer {seeded.a_key}"}
    sent = 0
    # Deletions last: A forgetting its own candidate first would spare the cases that pair it with B's ids.
    for label, case in sorted(CASES.items(), key=lambda item: item[0].startswith("DELETE")):
        for method, path, query, body in _requests(label, case, seeded):
            response = client.request(method, path, params=query, json=body, headers=headers)
            sent += 1
            where = f"{method} {path} {query} {body}"
            assert response.status_code < 500, f"{where}: {response.text}"
            assert not response.text.startswith('{"error":{"code":"not_found","message":"no route'), where
            assert CANARY not in response.text and CANARY not in str(response.headers), f"{where}: {response.text}"
            assert B not in response.text, f"{where}: B's workspace name came back"
    assert sent > 200
    assert _snapshot(memory, seeded) == before
    # B's key still works, and still sees its own canary.
    b_headers = {"Authorization": f"Bearer {seeded.b_key}"}
    mine = client.get("/v1/apps/project/subjects/tillpoint/records", headers=b_headers)
    assert mine.status_code == 200 and CANARY in mine.text
    # B's organisation rule set was there to reach: B's own key sees its rule and its override.
    org_book = client.get("/v1/apps/project/organisation/rulebook", headers=b_headers)
    assert org_book.status_code == 200 and CANARY in org_book.text
    overridden = client.get("/v1/apps/project/subjects/tillpoint/organisation/overrides", headers=b_headers)
    assert overridden.status_code == 200 and CANARY in overridden.text
