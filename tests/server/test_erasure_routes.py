"""Erasure over HTTP: a session deleted, a subject erased after its id is repeated, a record
forgotten with its sources redacted — each only within the caller's workspace."""

from __future__ import annotations

from tests.server.conftest import Api

STATEMENT = "The vault rotation codename is OSPREY31 for every quarter."


def _session(api: Api, subject: str) -> str:
    made = api.post(api.url("generic", subject, "/sessions"),
                    json={"title": "vault", "text": f"user: {STATEMENT}\nassistant: Noted: {STATEMENT}"})  # fmt: skip
    assert made.status_code == 201, made.text
    session_id: str = made.json()["session"]["id"]
    return session_id


def test_a_session_is_deleted_and_another_workspace_cannot_delete_it(api: Api, other: Api) -> None:
    session_id = _session(api, "ada")
    assert other.delete(other.url("generic", "ada", f"/sessions/{session_id}")).status_code == 404
    gone = api.delete(api.url("generic", "ada", f"/sessions/{session_id}"))
    assert gone.status_code == 200 and gone.json() == {"deleted_turns": 2}
    assert api.get(api.url("generic", "ada", f"/sessions/{session_id}")).status_code == 404


def test_a_subject_is_erased_only_when_its_id_is_repeated(api: Api, other: Api) -> None:
    _session(api, "ada")
    api.post(api.url("generic", "ada", "/records"), json={"text": STATEMENT})
    refused = api.delete("/v1/apps/generic/subjects/ada")
    assert refused.status_code == 422 and "confirm" in refused.json()["error"]["message"]
    assert other.delete("/v1/apps/generic/subjects/ada?confirm=ada").status_code == 404  # not theirs to erase
    done = api.delete("/v1/apps/generic/subjects/ada?confirm=ada")
    assert done.status_code == 200 and done.json()["erased_records"] >= 1
    assert api.get(api.url("generic", "ada", "/sessions")).json()["items"] == []


def test_forget_can_redact_the_turns_that_carried_a_record(api: Api) -> None:
    session_id = _session(api, "ada")
    made = api.post(api.url("generic", "ada", "/records"), json={"text": STATEMENT}).json()["record"]
    done = api.delete(api.url("generic", "ada", f"/records/{made['id']}?redact_sources=true"))
    assert done.status_code == 200 and done.json()["forgotten"] == 1
    turns = api.get(api.url("generic", "ada", f"/sessions/{session_id}")).json()["turns"]
    assert [t["text"] for t in turns] == ["[forgotten]", "Noted: [forgotten]"]


def test_a_member_key_cannot_delete_a_session_or_erase_a_subject(api: Api, member: Api) -> None:
    session_id = _session(api, "ada")
    for answer in (
        member.delete(member.url("generic", "ada", f"/sessions/{session_id}")),
        member.delete("/v1/apps/generic/subjects/ada?confirm=ada"),
    ):
        assert answer.status_code == 403 and "admin" in answer.json()["error"]["message"]
    assert api.get(api.url("generic", "ada", f"/sessions/{session_id}")).status_code == 200
