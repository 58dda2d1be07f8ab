"""Erasing from the workspace: only an admin key's browser sees the forms, and each asks for a
confirmation (a ticked box, or the subject id typed again) before anything goes."""

from __future__ import annotations

from forethought import Forethought
from tests.web.conftest import Browser, MakeBrowser

STATEMENT = "The vault rotation codename is OSPREY31 for every quarter."
CHAT = "/web/apps/generic/ada/chat"
MEMORY = "/web/apps/generic/ada/memory"


def test_an_admin_deletes_a_conversation_after_ticking_the_box(app_for: MakeBrowser, memory: Forethought) -> None:
    admin = app_for("acme", role="admin")
    admin.post(CHAT, {"message": STATEMENT})
    scope = memory.scope("generic", "ada", workspace="acme")
    (session,) = memory.list_sessions(scope)
    assert "Delete this conversation" in admin.get(f"{CHAT}?session={session.id}").text
    unticked = admin.post(f"{CHAT}/{session.id}/delete", {})
    assert "Tick the confirmation" in unticked.text and memory.list_sessions(scope)
    done = admin.post(f"{CHAT}/{session.id}/delete", {"confirm": "yes"})
    assert "Deleted the conversation" in done.text and memory.list_sessions(scope) == []


def test_a_member_key_sees_no_erasing_form_and_cannot_post_one(app_for: MakeBrowser, memory: Forethought) -> None:
    member = app_for("acme")
    member.post(CHAT, {"message": STATEMENT})
    scope = memory.scope("generic", "ada", workspace="acme")
    (session,) = memory.list_sessions(scope)
    record = memory.retain(scope, STATEMENT).record
    assert "Delete this conversation" not in member.get(f"{CHAT}?session={session.id}").text
    assert "Erase ada entirely" not in member.get(MEMORY).text
    assert "Forget (erase" not in member.get(f"{MEMORY}/{record.id}").text
    for path, data in [(f"{CHAT}/{session.id}/delete", {"confirm": "yes"}), (f"{MEMORY}/erase", {"confirm": "ada"}),
                       (f"{MEMORY}/{record.id}/forget", {"confirm": "yes"})]:  # fmt: skip
        assert "needs an admin key" in member.post(path, data).text
    assert memory.list_sessions(scope) and memory.get(scope, record.id)


def test_an_admin_forgets_a_record_with_its_sources_and_erases_the_subject(
    app_for: MakeBrowser, memory: Forethought
) -> None:
    admin: Browser = app_for("acme", role="admin")
    scope = memory.scope("generic", "ada", workspace="acme")
    admin.post(CHAT, {"message": STATEMENT})
    record = memory.retain(scope, STATEMENT).record
    forgotten = admin.post(f"{MEMORY}/{record.id}/forget", {"confirm": "yes", "redact_sources": "yes"})
    assert "Forgotten: 1 version(s)" in forgotten.text
    assert all(STATEMENT not in t.text for s in memory.list_sessions(scope) for t in s.turns)
    wrong = admin.post(f"{MEMORY}/erase", {"confirm": "bob"})
    assert "to confirm: erasing a subject cannot be undone" in wrong.text and memory.list_sessions(scope)
    admin.post(f"{MEMORY}/erase", {"confirm": "ada"})
    assert memory.list_spaces("acme") == []
