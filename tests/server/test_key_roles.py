"""Key roles: only an admin key manages keys and erases memory over HTTP, and only in its own
workspace; a member key gets 403 with a message saying what it would need."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forethought import Forethought, InvalidInput
from forethought.store.sqlite.driver import connect
from tests.server.conftest import Api

# Every route that manages keys or erases memory, as (method, path template). `{key}` is another
# key of the caller's workspace, `{record}` a record the caller's workspace holds.
ADMIN_ROUTES = [
    ("POST", "/v1/keys"),
    ("GET", "/v1/keys"),
    ("DELETE", "/v1/keys/{key}"),
    ("DELETE", "/v1/apps/project/subjects/tillpoint/records/{record}"),
]


def _record(api: Api) -> str:
    made = api.post(api.url("project", "tillpoint", "/records"), json={"text": "Ship on Tuesdays.", "kind": "decision"})
    assert made.status_code == 201, made.text
    record_id: str = made.json()["record"]["id"]
    return record_id


def _call(api: Api, method: str, path: str) -> object:
    return api.client.request(method, path, headers=api.headers)


@pytest.mark.parametrize(("method", "template"), ADMIN_ROUTES)
def test_a_member_key_gets_403_on_every_admin_route(
    api: Api, member: Api, memory: Forethought, method: str, template: str
) -> None:
    record = _record(api)
    path = template.format(key=api.key_id, record=record)
    refused = member.client.request(method, path, headers=member.headers)
    assert refused.status_code == 403, refused.text
    error = refused.json()["error"]
    assert error["code"] == "forbidden" and "admin key" in error["message"] and member.key_id in error["message"]
    # Nothing happened: the admin key still works and the record is still there.
    assert memory.authenticate(api.key) is not None
    assert api.get(api.url("project", "tillpoint", f"/records/{record}")).status_code == 200
    assert len(memory.list_api_keys("acme")) == 2


def test_a_member_key_still_reads_and_writes_memory(member: Api) -> None:
    made = member.post(member.url("project", "tillpoint", "/records"), json={"text": "Use UTC.", "kind": "decision"})
    assert made.status_code == 201
    assert member.get(member.url("project", "tillpoint", "/records")).status_code == 200
    assert member.get("/v1/workspace").json()["role"] == "member"


def test_an_admin_key_makes_member_keys_unless_asked_and_sees_roles(api: Api, memory: Forethought) -> None:
    plain = api.post("/v1/keys", json={"name": "agent"}).json()
    assert plain["role"] == "member"
    assert api.client.get("/v1/keys", headers={"Authorization": f"Bearer {plain['key']}"}).status_code == 403
    boss = api.post("/v1/keys", json={"name": "ops", "role": "admin"}).json()
    assert boss["role"] == "admin"
    assert api.client.get("/v1/keys", headers={"Authorization": f"Bearer {boss['key']}"}).status_code == 200
    roles = {k["id"]: k["role"] for k in api.get("/v1/keys").json()["items"]}
    assert roles == {api.key_id: "admin", plain["id"]: "member", boss["id"]: "admin"}
    assert api.post("/v1/keys", json={"role": "owner"}).status_code == 422


def test_an_admin_key_acts_only_in_its_own_workspace(api: Api, other: Api, memory: Forethought) -> None:
    theirs = _record(other)
    assert api.delete(f"/v1/keys/{other.key_id}").status_code == 404  # like an unknown id
    assert memory.authenticate(other.key) is not None
    assert api.delete(api.url("project", "tillpoint", f"/records/{theirs}")).status_code == 404
    assert other.get(other.url("project", "tillpoint", f"/records/{theirs}")).status_code == 200
    assert {k["workspace"] for k in api.get("/v1/keys").json()["items"]} == {"acme"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1, max_size=20),
    method=st.sampled_from(["POST", "GET", "DELETE"]),
)
def test_no_member_key_of_any_name_reaches_key_management(
    api: Api, memory: Forethought, name: str, method: str
) -> None:
    key, full = memory.create_api_key("acme", name=name)
    path = "/v1/keys" if method != "DELETE" else f"/v1/keys/{api.key_id}"
    response = api.client.request(method, path, headers={"X-API-Key": full})
    assert response.status_code == 403
    assert memory.authenticate(api.key) is not None
    memory.revoke_api_key(key.id)


def test_an_unknown_role_is_refused_by_the_facade(memory: Forethought) -> None:
    with pytest.raises(InvalidInput, match="role"):
        memory.create_api_key("acme", role="owner")  # type: ignore[arg-type]


def test_keys_made_before_roles_keep_one_admin_per_workspace(tmp_path: Path) -> None:
    """Migration 9: the oldest active key of each workspace becomes its admin, the rest members."""
    path = tmp_path / "v8.db"
    with Forethought.open(path, embedder="hashing") as memory:
        made = {
            name: memory.create_api_key(workspace, name=name)
            for workspace, name in [("acme", "revoked"), ("acme", "first"), ("acme", "second"), ("globex", "only")]
        }
        memory.revoke_api_key(made["revoked"][0].id)
    conn = connect(path)  # back to version 8: no role column
    conn.execute("ALTER TABLE api_keys DROP COLUMN role")
    conn.execute("DELETE FROM schema_migrations WHERE component = 'core' AND version = 9")
    for i, (key, _) in enumerate(made.values()):  # distinct creation times, in the order made
        conn.execute("UPDATE api_keys SET created_at = ? WHERE id = ?", (f"2026-01-0{i + 1}T00:00:00Z", key.id))
    conn.close()
    with Forethought.open(path, embedder="hashing") as memory:
        roles = {k.name: k.role for k in memory.list_api_keys()}
        assert roles == {"revoked": "member", "first": "admin", "second": "member", "only": "admin"}
        assert memory.authenticate(made["first"][1]).admin  # type: ignore[union-attr]
