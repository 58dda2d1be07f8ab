"""The Store contract, written once and run against every backend (see conftest.BACKENDS)."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from forethought import Conflict, NotFound, Status
from forethought.domain import Action, AuditEvent, Record, Role, Session, SpaceKey, Turn, new_id, transition
from forethought.domain.keys import ApiKey
from forethought.domain.times import parse_time, utcnow
from forethought.embed.hashing import HashingEmbedder
from forethought.memory.writing import Draft, index_payload, new_record
from forethought.recall.query import analyze
from forethought.store.base import ChangeSet, NewRecord, RecordFilter, Store

EMBED = HashingEmbedder()
T0 = parse_time("2026-01-01T00:00:00Z")


def space(store: Store, name: str = "ana") -> str:
    return store.spaces.resolve(SpaceKey(workspace="w", subject_type="student", subject_id=name)).id


def make(
    space_id: str,
    text: str,
    *,
    kind: str = "note",
    tags: tuple[str, ...] = (),
    external_id: str | None = None,
    status: Status = Status.ACTIVE,
    days: int = 0,
) -> Record:
    draft = Draft(kind=kind, statement=text, tags=tags, external_id=external_id)
    return new_record(space_id, draft, status=status, occurred_at=T0 + timedelta(days=days), now=utcnow())


def insert(store: Store, *records: Record) -> None:
    news = []
    for r in records:
        p = index_payload(r)
        news.append(NewRecord(r, EMBED.embed_one(p.embed_text), p.terms, p.search_text))
    store.records.apply(ChangeSet(records[0].space_id, inserts=news))


def test_resolve_space_is_stable_and_distinct(store: Store) -> None:
    a = space(store, "ana")
    assert a == space(store, "ana")
    assert a != space(store, "ben")
    with pytest.raises(NotFound):
        store.spaces.resolve(SpaceKey(subject_id="nobody"), create=False)
    assert {s.id for s in store.spaces.list("w")} == {a, space(store, "ben")}


def test_insert_then_get_by_id_and_handle(store: Store) -> None:
    s = space(store)
    r = make(s, "Ana knows Rust well.", kind="skill", tags=("lang",))
    insert(store, r)
    assert store.records.get(s, r.id) == r
    assert store.records.get(s, r.handle) == r
    assert store.records.get(s, r.handle.upper()) == r


def test_get_refuses_a_record_of_another_space(store: Store) -> None:
    a, b = space(store, "ana"), space(store, "ben")
    r = make(a, "Ana's secret canary 7731.")
    insert(store, r)
    with pytest.raises(NotFound):
        store.records.get(b, r.id)
    assert store.records.get_many(b, [r.id]) == []
    assert store.counters.foreign_rows_dropped >= 1


def test_change_sets_are_atomic_and_compare_and_set(store: Store) -> None:
    s = space(store)
    r = make(s, "First fact.")
    insert(store, r)
    retracted, event = transition(r, Status.RETRACTED, actor="t", at=utcnow())
    store.records.apply(ChangeSet(s, transitions=[(r, retracted)], events=[event]))
    assert store.records.get(s, r.id).status is Status.RETRACTED
    # A second change built from the stale 'active' copy must fail, and take its insert with it.
    other = make(s, "Would be inserted with the stale change.")
    stale, _ = transition(r, Status.SUPERSEDED, actor="t", at=utcnow())
    p = index_payload(other)
    with pytest.raises(Conflict):
        store.records.apply(
            ChangeSet(s, inserts=[NewRecord(other, None, p.terms, p.search_text)], transitions=[(r, stale)])
        )
    with pytest.raises(NotFound):
        store.records.get(s, other.id)
    assert store.records.get(s, r.id).status is Status.RETRACTED


def test_external_ids_are_unique_per_space(store: Store) -> None:
    a, b = space(store, "ana"), space(store, "ben")
    insert(store, make(a, "One.", external_id="x1"))
    with pytest.raises(Conflict):
        insert(store, make(a, "Two.", external_id="x1"))
    insert(store, make(b, "Two.", external_id="x1"))
    found = store.records.find_by_external_id(a, "x1")
    assert found is not None and found.statement == "One."


def test_list_and_count_filter_by_status_kind_tag_and_page(store: Store) -> None:
    s = space(store)
    records = [
        make(s, f"Fact number {i}.", kind="skill" if i % 2 else "project", tags=("t",) if i % 3 == 0 else ())
        for i in range(10)
    ]
    records.append(make(s, "A candidate.", status=Status.CANDIDATE))
    insert(store, *records)
    assert store.records.count(s, RecordFilter()) == 10
    assert store.records.count(s, RecordFilter(statuses=())) == 11
    assert store.records.count(s, RecordFilter(statuses=(Status.CANDIDATE,))) == 1
    assert store.records.count(s, RecordFilter(kinds=("skill",))) == 5
    assert store.records.count(s, RecordFilter(tags=("t",))) == 4
    first = store.records.list(s, RecordFilter(), limit=4)
    rest = store.records.list(s, RecordFilter(), limit=100, after_id=first[-1].id)
    assert [r.id for r in first + rest] == sorted(r.id for r in records[:10])
    newest = store.records.list(s, RecordFilter(), limit=4, newest_first=True)
    older = store.records.list(s, RecordFilter(), limit=100, after_id=newest[-1].id, newest_first=True)
    assert [r.id for r in newest + older] == sorted((r.id for r in records[:10]), reverse=True)


def test_time_filters_and_as_of(store: Store) -> None:
    s = space(store)
    old = make(s, "Releases ship on Tuesday.", days=0)
    insert(store, old)
    new = make(s, "Releases ship on Thursday.", days=10)
    after, event = transition(
        old, Status.SUPERSEDED, actor="t", at=utcnow(), valid_to=new.occurred_at, superseded_by=new.id
    )
    insert(store, new)
    store.records.apply(ChangeSet(s, transitions=[(old, after)], events=[event]))
    both = (Status.ACTIVE, Status.SUPERSEDED)

    def ids(flt: RecordFilter) -> set[str]:
        return {r.id for r in store.records.list(s, flt)}

    assert ids(RecordFilter(statuses=both, as_of=T0 + timedelta(days=5))) == {old.id}
    assert ids(RecordFilter(statuses=both, as_of=T0 + timedelta(days=10))) == {new.id}
    assert ids(RecordFilter(statuses=both, as_of=T0 - timedelta(days=1))) == set()
    assert ids(RecordFilter(statuses=both, occurred_after=T0 + timedelta(days=1))) == {new.id}
    assert ids(RecordFilter(statuses=both, occurred_before=T0 + timedelta(days=1))) == {old.id}


def test_keyword_vector_and_term_search_respect_space_and_filter(store: Store) -> None:
    a, b = space(store, "ana"), space(store, "ben")
    hit = make(a, "We instantiate PrismaClient once in lib/db.ts.", kind="convention")
    cand = make(a, "PrismaClient candidate fact.", status=Status.CANDIDATE)
    foreign = make(b, "Ben also uses PrismaClient in lib/db.ts.")
    insert(store, hit, cand)
    insert(store, foreign)
    flt = RecordFilter()
    q = analyze("PrismaClient")
    assert [x.record_id for x in store.search.keyword(a, q.keywords, flt, 10)] == [hit.id]
    assert [x.record_id for x in store.search.terms(a, q.terms, flt, 10)] == [hit.id]
    near = store.search.vector(a, EMBED.embed_one("PrismaClient once in lib/db.ts"), flt, 10)
    assert [x.record_id for x in near] == [hit.id]
    assert near[0].score > 0.3
    everything = RecordFilter(statuses=())
    assert {x.record_id for x in store.search.vector(a, EMBED.embed_one("PrismaClient"), everything, 10)} == {
        hit.id,
        cand.id,
    }
    assert store.search.keyword(a, q.keywords, RecordFilter(kinds=("decision",)), 10) == []


def test_vector_search_sees_writes_made_through_another_store_object(store: Store, tmp_path: object) -> None:
    s = space(store)
    insert(store, make(s, "Alpha beta gamma."))
    assert len(store.search.vector(s, EMBED.embed_one("alpha"), RecordFilter(), 10)) == 1
    insert(store, make(s, "Delta epsilon."))
    assert len(store.search.vector(s, EMBED.embed_one("alpha"), RecordFilter(), 10)) == 2


def test_forget_erases_every_version_and_cuts_links(store: Store) -> None:
    s = space(store)
    old = make(s, "Zebra canary 4417 is the codename.")
    newer = make(s, "Codename is now Yak.", days=1)
    insert(store, old)
    after, event = transition(old, Status.SUPERSEDED, actor="t", at=utcnow(), superseded_by=newer.id)
    insert(store, newer.model_copy(update={"supersedes": (old.id,)}))
    store.records.apply(ChangeSet(s, transitions=[(old, after)], events=[event]))
    assert store.records.forget(s, old.lineage_id, actor="t") == 1
    with pytest.raises(NotFound):
        store.records.get(s, old.id)
    assert store.records.get(s, newer.id).supersedes == ()
    q = analyze("Zebra canary 4417")
    everything = RecordFilter(statuses=())
    assert store.search.keyword(s, q.keywords, everything, 10) == []
    assert store.search.terms(s, q.terms, everything, 10) == []
    assert old.id not in {x.record_id for x in store.search.vector(s, EMBED.embed_one(old.statement), everything, 10)}
    events = store.audit.events(s)
    assert all(e.record_id != old.id for e in events)
    assert any(e.action is Action.FORGOTTEN and e.lineage_id == old.lineage_id for e in events)
    with pytest.raises(NotFound):
        store.records.forget(s, old.lineage_id, actor="t")


def test_erase_space_leaves_other_spaces_alone(store: Store) -> None:
    a, b = space(store, "ana"), space(store, "ben")
    insert(store, make(a, "Ana canary."), make(a, "Ana second."))
    keep = make(b, "Ben canary.")
    insert(store, keep)
    assert store.spaces.erase(a, actor="t") == 2
    assert store.records.count(a, RecordFilter(statuses=())) == 0
    assert store.search.vector(a, EMBED.embed_one("Ana canary"), RecordFilter(statuses=()), 10) == []
    assert store.records.get(b, keep.id) == keep
    assert a not in {sp.id for sp in store.spaces.list()}


def test_sessions_round_trip(store: Store) -> None:
    s = space(store)
    session = Session(
        id=new_id(),
        space_id=s,
        title="chat",
        created_at=utcnow(),
        turns=(
            Turn(index=0, role=Role.USER, text="I know Go.", speaker="ana"),
            Turn(index=1, role=Role.AGENT, text="Great."),
        ),
    )
    store.sessions.add(session)
    assert store.sessions.get(s, session.id) == session
    assert [x.id for x in store.sessions.list(s)] == [session.id]
    assert store.sessions.count(s) == 1 and store.sessions.count(space(store, "cy")) == 0
    with pytest.raises(NotFound):
        store.sessions.get(space(store, "ben"), session.id)


def test_sessions_know_the_source_documents_they_were_captured_from(store: Store) -> None:
    a, b = space(store), space(store, "ben")
    for sp, ref in ((a, "git:abc"), (a, "adr:0007"), (b, "git:def")):
        turns = (Turn(index=0, role=Role.USER, text="Never cache tokens."),)
        store.sessions.add(
            Session(id=new_id(), space_id=sp, title=ref, created_at=utcnow(), turns=turns, metadata={"ref": ref})
        )
    store.sessions.add(Session(id=new_id(), space_id=a, title="chat", created_at=utcnow()))
    asked = ["git:abc", "git:def", "adr:0007", "rules:AGENTS.md", *(f"git:{i}" for i in range(1200))]
    assert store.sessions.known_refs(a, asked) == {"git:abc", "adr:0007"}
    assert store.sessions.known_refs(b, asked) == {"git:def"}  # another space's documents are not known
    assert store.sessions.known_refs(a, []) == set()


def test_audit_events_page_newest_first(store: Store) -> None:
    s = space(store)
    events = [AuditEvent(id=new_id(), space_id=s, action=Action.CREATED, actor="t", at=utcnow()) for _ in range(5)]
    store.records.apply(ChangeSet(s, events=events))
    page = store.audit.events(s, limit=3)
    assert [e.id for e in page] == [e.id for e in reversed(events)][:3]
    rest = store.audit.events(s, limit=3, before_seq=page[-1].seq)
    assert [e.id for e in rest] == [events[1].id, events[0].id]


def test_stored_vectors_survive_a_reopen_and_rank_the_same(tmp_path: object) -> None:
    from pathlib import Path

    from forethought.store.sqlite import SQLiteStore

    path = Path(str(tmp_path)) / "v.db"
    first = SQLiteStore(path)
    s = space(first)
    insert(first, make(s, "Ana likes functional programming."), make(s, "Ben prefers databases."))
    query = EMBED.embed_one("functional programming")
    before = first.search.vector(s, query, RecordFilter(), 2)
    first.close()
    second = SQLiteStore(path)
    after = second.search.vector(s, query, RecordFilter(), 2)
    second.close()
    assert [x.record_id for x in before] == [x.record_id for x in after]
    assert np.allclose([x.score for x in before], [x.score for x in after], atol=1e-3)


def test_append_turns_continues_a_session_and_refuses_foreign_or_taken_indexes(store: Store) -> None:
    s = space(store)
    session = Session(
        id=new_id(),
        space_id=s,
        title="chat",
        created_at=utcnow(),
        turns=(Turn(index=0, role=Role.USER, text="Hello."),),
    )
    store.sessions.add(session)
    store.sessions.append_turns(
        s, session.id, [Turn(index=1, role=Role.AGENT, text="Hi."), Turn(index=2, role=Role.USER, text="Remember X.")]
    )
    assert [t.text for t in store.sessions.get(s, session.id).turns] == ["Hello.", "Hi.", "Remember X."]
    with pytest.raises(Conflict):
        store.sessions.append_turns(s, session.id, [Turn(index=2, role=Role.USER, text="Again.")])
    with pytest.raises(NotFound):
        store.sessions.append_turns(space(store, "ben"), session.id, [Turn(index=3, role=Role.USER, text="Intruder.")])
    assert len(store.sessions.get(s, session.id).turns) == 3


def test_traces_round_trip_newest_first_and_stay_in_their_space(store: Store) -> None:
    a, b = space(store, "ana"), space(store, "ben")
    store.traces.add(a, "t1", kind="turn", session_id=None, created_at=T0, data={"id": "t1", "stages": []})
    store.traces.add(a, "t2", kind="turn", session_id=None, created_at=T0 + timedelta(seconds=1), data={"id": "t2"})
    assert store.traces.get(a, "t1") == {"id": "t1", "stages": []}
    assert [t["id"] for t in store.traces.list(a)] == ["t2", "t1"]
    with pytest.raises(NotFound):
        store.traces.get(b, "t1")
    assert store.traces.list(b) == []
    store.spaces.erase(a, actor="t")
    assert store.traces.list(a) == []


def test_traces_are_read_by_kind(store: Store) -> None:
    a = space(store, "ana")
    store.traces.add(a, "t1", kind="turn", session_id=None, created_at=T0, data={"id": "t1"})
    store.traces.add(a, "c1", kind="compare", session_id=None, created_at=T0 + timedelta(seconds=1), data={"id": "c1"})
    store.traces.add(a, "t2", kind="turn", session_id=None, created_at=T0 + timedelta(seconds=2), data={"id": "t2"})
    assert [t["id"] for t in store.traces.list(a)] == ["t2", "c1", "t1"]
    assert [t["id"] for t in store.traces.list(a, kind="turn")] == ["t2", "t1"]
    assert [t["id"] for t in store.traces.list(a, kind="turn", before_id="c1")] == ["t1"]
    assert [t["id"] for t in store.traces.list(a, kind="compare")] == ["c1"]
    assert store.traces.get(a, "c1", kind="compare") == {"id": "c1"}
    with pytest.raises(NotFound):
        store.traces.get(a, "c1", kind="turn")


def test_statement_tokens_sums_the_estimate_of_matching_records(store: Store) -> None:
    from forethought.recall.packing import estimate_tokens

    s = space(store)
    texts = ["Short.", "A somewhat longer statement about the release process and its owners.", "x" * 400]
    insert(store, *[make(s, t) for t in texts])
    insert(store, make(s, "A candidate is not current.", status=Status.CANDIDATE))
    assert store.records.statement_tokens(s, RecordFilter()) == sum(estimate_tokens(t) for t in texts)
    assert store.records.statement_tokens(space(store, "empty"), RecordFilter()) == 0


def test_search_turns_finds_what_people_and_agents_said_in_this_space_only(store: Store) -> None:
    a, b = space(store, "ana"), space(store, "ben")

    def add(sp: str, *turns: Turn) -> str:
        session = Session(id=new_id(), space_id=sp, title="chat", created_at=utcnow(), turns=turns)
        store.sessions.add(session)
        return session.id

    chat = add(
        a,
        Turn(index=0, role=Role.USER, text="The ledger export keeps timing out."),
        Turn(index=1, role=Role.TOOL, text="ledger ledger ledger export trace"),
        Turn(index=2, role=Role.AGENT, text="Batch the export in pages of 500 rows."),
    )
    add(b, Turn(index=0, role=Role.USER, text="Ben's ledger export is fine."))
    hits = store.sessions.search_turns(a, ["ledger", "export"], 10)
    assert [(h.session_id, h.turn_index) for h in hits][:1] == [(chat, 0)]
    assert {h.turn_index for h in hits} == {0, 2}  # tool output is not searched; Ben's chat is not Ana's
    assert all(h.session_id == chat for h in hits)
    store.sessions.append_turns(a, chat, [Turn(index=3, role=Role.USER, text="Pages of 500 rows worked.")])
    assert [h.turn_index for h in store.sessions.search_turns(a, ["worked"], 10)] == [3]
    assert store.sessions.search_turns(a, ['" OR *', "NEAR("], 10) == []  # query syntax is only words
    assert store.sessions.search_turns(a, [], 10) == []
    store.spaces.erase(a, actor="t")
    assert store.sessions.search_turns(a, ["ledger"], 10) == []
    assert len(store.sessions.search_turns(b, ["ledger"], 10)) == 1


def test_keys_keep_their_role(store: Store) -> None:
    admin = ApiKey(id="a1", workspace="w", name="ops", created_at=T0, role="admin")
    member = ApiKey(id="m1", workspace="w", name="agent", created_at=T0 + timedelta(seconds=1))
    store.keys.add(admin, "hash-a")
    store.keys.add(member, "hash-m")
    assert store.keys.by_hash("hash-a") == admin and store.keys.by_hash("hash-m") == member
    assert [(k.id, k.role) for k in store.keys.list("w")] == [("a1", "admin"), ("m1", "member")]
    assert store.keys.revoke("a1", T0).role == "admin"
