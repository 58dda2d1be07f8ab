"""One Scope names a subject everywhere, and a governed turn looks its space up exactly once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from forethought import Forethought, InvalidInput, NotFound, SpaceKey
from forethought.embed.hashing import HashingEmbedder
from forethought.llm.fake import FakeChatModel
from forethought.memory import UnknownApp
from forethought.server import ServerSettings, create_app
from tests.pipeline.conftest import router


class CountingSpaces:
    """Counts every space lookup (with or without creation) the store is asked for."""

    def __init__(self, memory: Forethought) -> None:
        self.calls: list[tuple[SpaceKey, bool]] = []
        real = memory.store.spaces.resolve

        def resolve(key: SpaceKey, *, create: bool = True) -> Any:
            self.calls.append((key, create))
            return real(key, create=create)

        memory.store.spaces.resolve = resolve  # type: ignore[method-assign]


@pytest.fixture
def counted(memory: Forethought) -> Iterator[CountingSpaces]:
    yield CountingSpaces(memory)


def test_a_governed_turn_looks_up_its_space_once(memory: Forethought, counted: CountingSpaces) -> None:
    memory.turn(memory.scope("generic", "ana"), "Remember that the staging database is read-only.")
    assert len(counted.calls) == 1  # the first turn creates the space: still one lookup
    counted.calls.clear()
    result = memory.turn(memory.scope("generic", "ana"), "Can I write test data to the staging database?")
    assert result.trace.used, "the second turn recalls, briefs and remembers: every stage ran"
    assert len(counted.calls) == 1


def test_a_turn_with_a_model_looks_up_its_space_once(memory: Forethought, counted: CountingSpaces) -> None:
    memory.retain(memory.scope("project", "apexcart"), "Never cache payment tokens.", kind="decision")
    memory.model = FakeChatModel(default=router("Caching is off the table: tokens are never cached."))
    counted.calls.clear()
    result = memory.turn(memory.scope("project", "apexcart"), "Should I cache payment tokens?")
    assert "check" in result.trace.stage_names() and not result.trace.heuristic
    assert len(counted.calls) == 1


def test_a_turn_over_http_looks_up_its_space_once(memory: Forethought, counted: CountingSpaces) -> None:
    _, key = memory.create_api_key("acme", name="turns")
    with TestClient(create_app(memory, ServerSettings(rate_per_second=0))) as client:
        url = "/v1/apps/project/subjects/apexcart/turns"
        headers = {"Authorization": f"Bearer {key}"}
        first = client.post(url, json={"message": "We never cache payment tokens."}, headers=headers)
        assert first.status_code == 200, first.text
        counted.calls.clear()
        again = client.post(url, json={"message": "Can I cache payment tokens?"}, headers=headers)
        assert again.status_code == 200, again.text
    assert len(counted.calls) == 1


def test_reads_of_an_unknown_subject_create_nothing(memory: Forethought, counted: CountingSpaces) -> None:
    nobody = memory.scope("career", "nobody")
    assert memory.recall(nobody, "anything").hits == []
    assert memory.list_records(nobody) == [] and memory.inbox(nobody).pending == []
    assert memory.brief(nobody, "anything at all").used == []
    assert memory.store.spaces.list() == []
    assert counted.calls == [(nobody.key, False)]  # looked up once, and never created
    with pytest.raises(NotFound):
        memory.get(nobody, "01ARZ3NDEKTSV4RRFFQ69G5FAV")


def test_a_bare_subject_name_is_refused_everywhere(memory: Forethought) -> None:
    """The old spellings — a string, or a SpaceKey — are errors, not another space."""
    for subject in ("acme", SpaceKey(subject_id="acme")):
        for call in (
            lambda s: memory.retain(s, "x"),
            lambda s: memory.recall(s, "x"),
            lambda s: memory.list_records(s),
            lambda s: memory.brief(s, "x"),
            lambda s: memory.turn(s, "x"),
            lambda s: memory.inbox(s),
            lambda s: memory.list_sessions(s),
        ):
            with pytest.raises(InvalidInput, match="Scope"):
                call(subject)
    assert memory.store.spaces.list() == []


def test_one_subject_is_one_space_whichever_call_names_it(memory: Forethought) -> None:
    acme = memory.scope("project", "acme")
    memory.retain(acme, "We deploy on Fridays only after the freeze review.", kind="decision")
    assert [i.record.statement for i in memory.brief(acme, "can we deploy on friday?").used]
    assert acme.key == SpaceKey(workspace="default", subject_type="project", subject_id="acme")
    # the same subject id under another app is another subject, and says so in its key
    assert memory.recall(memory.scope("generic", "acme"), "deploy friday").hits == []


def test_a_scope_of_another_store_is_refused(memory: Forethought, tmp_path: Any) -> None:
    with Forethought.open(tmp_path / "other.db", embedder=HashingEmbedder()) as other:
        theirs = other.scope("project", "acme")
        other.retain(theirs, "Theirs.")
        with pytest.raises(InvalidInput, match="another memory"):
            memory.retain(theirs, "Mine.")
        with pytest.raises(InvalidInput, match="another memory"):
            memory.recall(theirs, "Theirs")
        with pytest.raises(InvalidInput, match="another memory"):
            memory.space(theirs)


def test_a_bad_subject_or_app_is_a_clear_error(memory: Forethought) -> None:
    with pytest.raises(UnknownApp, match="unknown app 'nope'"):
        memory.scope("nope", "acme")
    with pytest.raises(InvalidInput, match=r"^project: "):
        memory.scope("project", "", field="project")
    with pytest.raises(InvalidInput, match=r"^subject: "):
        memory.scope("project", "x" * 1000)


def test_erasing_a_space_lets_the_same_scope_write_again(memory: Forethought) -> None:
    acme = memory.scope("generic", "acme")
    memory.retain(acme, "First life.")
    assert memory.erase_space(acme) == 1
    assert memory.list_records(acme) == []
    memory.retain(acme, "Second life.")
    assert [r.statement for r in memory.list_records(acme)] == ["Second life."]
