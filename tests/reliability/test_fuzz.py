"""Schemathesis against the OpenAPI schema of a running server: every operation, generated valid
and invalid input, and every response checked — never a 5xx, status codes and content types the
schema documents, bodies that conform to the documented schema, every error in the one envelope.

Generation is steered part of the time toward data that exists (a known app, the seeded subject,
seeded record, trace, session and key ids), so the fuzzer reaches the handlers' real work and not
only their 404s. Deterministic: a fixed seed, `derandomize`, no example database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import schemathesis
from fastapi.routing import APIRoute
from hypothesis import strategies as st
from schemathesis import APIOperation, BaseSchema, Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from forethought import Forethought, Status
from forethought.server.routes import ROUTERS
from tests.reliability.server import ServerProcess

WORKSPACE = "fuzz"
APPS = ("generic", "career", "support", "project")
# Operations that change what a path names are steered to their own subject, so the reads still
# find the seeded data whichever order the operations run in.
READ, WRITE = "reader", "writer"
MAX_EXAMPLES = 50  # per operation; ~30 operations take about half a minute
SEED = 20260214
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
TRANSCRIPT = (
    "Customer: Our invoices stopped syncing to QuickBooks after the March update.\n"
    "Agent: I'm sorry to hear that. Did clearing the browser cache help?\n"
    "Customer: No, clearing the cache did not fix the sync.\n"
)

Ids = dict[str, list[str]]  # path parameter name -> values that exist


@dataclass(frozen=True)
class Seeded:
    key: str
    ids: dict[tuple[str, str], Ids]  # (app, subject) -> the ids in that space
    key_ids: list[str]  # spare keys of the workspace, for DELETE /v1/keys/{key_id}


def _seed_space(memory: Forethought, app: str, subject: str) -> Ids:
    key = memory.scope(app, subject, workspace=WORKSPACE)
    ids: Ids = {"record_id": [], "trace_id": [], "session_id": []}
    for text in ("Use Postgres for the ledger service.", "The customer prefers email over phone calls."):
        record = memory.retain(key, text).record
        ids["record_id"] += [record.id, record.handle]
    for text in ("Deploys happen on Tuesdays.", "Releases are tagged by the release manager."):
        ids["record_id"].append(memory.retain(key, text, status=Status.CANDIDATE).record.id)
    done = memory.turn(key, "What database do we use for the ledger?")
    ids["trace_id"].append(done.trace_id)
    ids["session_id"].append(done.session_id)
    ids["session_id"].append(memory.submit_session(key, TRANSCRIPT, title="sync problem").session.id)
    return ids


def _seed(db: Path) -> Seeded:
    with Forethought.open(db, embedder="hashing") as memory:
        ids = {(app, subject): _seed_space(memory, app, subject) for app in APPS for subject in (READ, WRITE)}
        spares = [memory.create_api_key(WORKSPACE, name=f"spare-{i}")[0].id for i in range(3)]
        _, full = memory.create_api_key(WORKSPACE, name="fuzzer", role="admin")
    return Seeded(key=full, ids=ids, key_ids=spares)


@pytest.fixture(scope="module")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Seeded]]:
    db = tmp_path_factory.mktemp("fuzz") / "memory.db"
    seeded = _seed(db)
    with ServerProcess(db) as server:
        yield server, seeded


STATUSES: Counter[str] = Counter()  # "<operation> <status>": what the fuzzer reached, for the docs


def _operations() -> list[str]:
    """Every documented operation of the API, known without a server (the routers are static)."""
    return sorted(
        f"{method} {route.path}"
        for router in ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute) and route.include_in_schema
        for method in route.methods or ()
    )


OPERATIONS = _operations()


@pytest.fixture(scope="module")
def api_schema(seeded_server: tuple[ServerProcess, Seeded]) -> Iterator[BaseSchema]:
    server, _ = seeded_server
    config = schemathesis.Config.from_dict({"seed": SEED, "generation": {"database": "none"}})
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json", config=config)
    schema.config.update(base_url=server.url)
    yield schema
    print("\nfuzz statuses:", dict(sorted(STATUSES.items())), f"total {STATUSES.total()}")


def test_the_fuzzed_operations_are_all_the_served_ones(api_schema: BaseSchema) -> None:
    served = [op.ok().label for op in api_schema.get_all_operations() if isinstance(op, Ok)]
    assert sorted(served) == OPERATIONS


def _envelope(body: Any) -> bool:
    if not isinstance(body, dict) or set(body) != {"error"} or not isinstance(body["error"], dict):
        return False
    error = body["error"]
    return set(error) == {"code", "message", "details"} and isinstance(error["code"], str) and bool(error["message"])


def _steered(
    operation: APIOperation[Any, Any, Any, Any], seeded: Seeded, mode: GenerationMode
) -> st.SearchStrategy[Case[Any]]:
    """Cases as generated, and the same cases with their path naming data that exists."""
    generated = operation.as_strategy(generation_mode=mode)
    subject = READ if operation.method.upper() == "GET" or "{record_id}" not in operation.path else WRITE
    if operation.method.upper() == "DELETE":
        subject = WRITE

    def real(app: str) -> st.SearchStrategy[dict[str, Any]]:
        ids = seeded.ids[(app, subject)]
        known = {name: st.sampled_from(values) for name, values in ids.items()}
        return st.fixed_dictionaries(
            {"app": st.just(app), "subject_id": st.just(subject), "key_id": st.sampled_from(seeded.key_ids), **known}
        )

    def steer(case: Case[Any], params: dict[str, Any]) -> Case[Any]:
        named = {name: value for name, value in params.items() if name in case.path_parameters}
        case.path_parameters = {**case.path_parameters, **named}
        return case

    return st.one_of(generated, st.builds(steer, generated, st.sampled_from(APPS).flatmap(real)))


@pytest.mark.parametrize("label", OPERATIONS)
def test_operation(label: str, api_schema: BaseSchema, seeded_server: tuple[ServerProcess, Seeded]) -> None:
    _, seeded = seeded_server
    method, path = label.split(" ", 1)
    operation = api_schema[path][method]
    headers = {"Authorization": f"Bearer {seeded.key}"}

    @hypothesis.settings(
        max_examples=MAX_EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(hypothesis.HealthCheck),
    )
    @hypothesis.given(
        case=st.one_of(
            _steered(operation, seeded, GenerationMode.POSITIVE), _steered(operation, seeded, GenerationMode.NEGATIVE)
        )
    )
    def fuzz(case: Case[Any]) -> None:
        response = case.call_and_validate(headers=headers, checks=CHECKS, timeout=30)
        STATUSES[f"{label} {response.status_code}"] += 1
        # Every case carries a valid key: a 401 would mean the fuzzer lost its key (revoked it)
        # and every case after that proved nothing.
        assert response.status_code != 401, response.text
        if response.status_code >= 400:
            assert _envelope(response.json()), f"not the error envelope: {response.text[:500]}"
            assert "Traceback" not in response.text

    fuzz()
