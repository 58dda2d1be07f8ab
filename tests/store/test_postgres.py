"""What the PostgreSQL store adds to the contract suite: one migration sequence with SQLite, several
processes on one database, disjoint outbox claims, the URL's password kept out of every message,
and its own SQL plumbing (placeholders, vectors)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psycopg
import pytest

from forethought import BackendError, Forethought, InvalidInput, Status
from forethought.domain import SpaceKey
from forethought.domain.times import utcnow
from forethought.embed.hashing import HashingEmbedder
from forethought.memory.writing import Draft, index_payload, new_record
from forethought.store.base import AppMigration, ChangeSet, NewRecord, RecordFilter
from forethought.store.postgres import PostgresStore
from forethought.store.postgres import migrate as pg_migrate
from forethought.store.postgres import search as pg_search
from forethought.store.postgres.driver import placeholders, vector_literal
from forethought.store.postgres.records import ANALYZE_AFTER
from forethought.store.sqlite import migrate as sqlite_migrate
from forethought.targets import backend_for, display_target, local_file_beside
from tests.pg_server import PostgresServer

EMBED = HashingEmbedder()


@pytest.fixture
def two(postgres_dsn: str) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    """Two stores on one database, as two API workers would hold."""
    first, second = PostgresStore(postgres_dsn), PostgresStore(postgres_dsn)
    try:
        yield first, second
    finally:
        first.close()
        second.close()


def _insert(store: PostgresStore, space_id: str, text: str, *, embed_later: bool = False) -> str:
    now = utcnow()
    record = new_record(space_id, Draft(kind="note", statement=text), status=Status.ACTIVE, occurred_at=now, now=now)
    payload = index_payload(record)
    vector = None if embed_later else EMBED.embed_one(payload.embed_text)
    new = NewRecord(record, vector, payload.terms, payload.search_text, embed_later=embed_later)
    store.records.apply(ChangeSet(space_id, inserts=[new]))
    return record.id


def test_both_backends_share_one_migration_sequence() -> None:
    sqlite_steps = [(m.version, m.name) for m in sqlite_migrate.available_migrations()]
    postgres_steps = [(m.version, m.name) for m in pg_migrate.available_migrations()]
    assert postgres_steps == sqlite_steps


def test_racing_opens_of_a_new_database_migrate_it_once(postgres_server: PostgresServer) -> None:
    dsn = postgres_server.create_database()  # empty: nothing migrated yet
    opened: list[PostgresStore] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            opened.append(PostgresStore(dsn))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == [] and len(opened) == 4
        with psycopg.connect(dsn) as conn:
            rows = conn.execute("SELECT component, version FROM schema_migrations ORDER BY version").fetchall()
            secrets = conn.execute("SELECT COUNT(*) FROM meta WHERE key = 'space_secret'").fetchone()
        assert rows == [("core", v) for v in range(1, 18)]
        assert secrets == (1,)
        key = SpaceKey(workspace="w", subject_id="ana")
        assert len({s.spaces.resolve(key).id for s in opened}) == 1  # one secret: one id everywhere
    finally:
        for store in opened:
            store.close()
        postgres_server.drop_database(dsn)


def test_a_write_through_one_worker_is_read_by_another(two: tuple[PostgresStore, PostgresStore]) -> None:
    first, second = two
    space = first.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id
    record_id = _insert(first, space, "Ledger amounts are integer cents.")
    assert second.records.get(space, record_id).statement == "Ledger amounts are integer cents."
    hits = second.search.keyword(space, ["cents"], RecordFilter(), 5)
    assert [h.record_id for h in hits] == [record_id]
    assert second.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id == space


def test_workers_claim_disjoint_outbox_jobs(two: tuple[PostgresStore, PostgresStore]) -> None:
    first, second = two
    space = first.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id
    for i in range(6):
        _insert(first, space, f"Fact number {i} waits for its vector.", embed_later=True)
    a = first.outbox.claim(limit=3)
    b = second.outbox.claim(limit=10)
    assert len(a) == 3 and len(b) == 3  # leased jobs are not handed out twice
    assert not {j.id for j in a} & {j.id for j in b}
    for job in [*a, *b]:
        (second if job in b else first).outbox.complete_embedding(job, EMBED.embed_one("fact"))
    assert first.outbox.pending(space) == 0
    assert len(first.search.vector(space, EMBED.embed_one("fact"), RecordFilter(), 10)) == 6


def test_a_small_space_in_a_larger_table_gets_all_its_nearest_and_nothing_else(postgres_dsn: str) -> None:
    """Through the HNSW index itself (the planner is left no other way): its first candidates all
    belong to another space, so only a scan that goes on past them finds this space's records."""
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {postgres_dsn.rsplit('/', 1)[1]} SET enable_seqscan = off")
        conn.execute("DROP INDEX record_vectors_space")
    store = PostgresStore(postgres_dsn)
    try:
        big = store.spaces.resolve(SpaceKey(workspace="w", subject_id="big")).id
        small = store.spaces.resolve(SpaceKey(workspace="w", subject_id="small")).id
        # The other space's records are all nearer the query than this one's: a scan that stopped
        # at its first candidates would find none of this space's.
        for i in range(300):
            _insert(store, big, f"ledgers invoices {i}")
        mine = {
            _insert(store, small, f"Small space note {i}: the quarterly review mentions ledgers.") for i in range(5)
        }
        hits = store.search.vector(small, EMBED.embed_one("ledgers invoices"), RecordFilter(), 10)
        assert {h.record_id for h in hits} == mine
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        with store.raw() as conn:
            plan = conn.execute(
                "EXPLAIN SELECT record_seq FROM record_vectors v WHERE v.space_id = %s"
                " ORDER BY v.embedding::vector(384) <=> %s::vector(384) LIMIT 64",
                (small, vector_literal(EMBED.embed_one("ledgers invoices"))),
            ).fetchall()
        assert "record_vectors_hnsw_384" in " ".join(r[0] for r in plan)  # the path this test is about
    finally:
        store.close()


def test_text_postgresql_cannot_hold_is_refused_as_input(postgres_dsn: str) -> None:
    store = PostgresStore(postgres_dsn)
    try:
        space = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id
        with pytest.raises(InvalidInput, match="NUL"):
            _insert(store, space, "a NUL \x00 inside")
        assert store.records.count(space, RecordFilter()) == 0
    finally:
        store.close()


def test_the_password_of_a_url_is_never_shown() -> None:
    url = "postgresql://app:s3cret-Pw@db.internal:6432/memory?sslmode=require&password=other"
    assert display_target(url) == "postgresql://app@db.internal:6432/memory"
    assert "s3cret" not in str(local_file_beside(url, "demo-key"))
    with pytest.raises(BackendError) as caught:
        PostgresStore("postgresql://app:s3cret-Pw@127.0.0.1:1/memory")
    assert "could not connect" in str(caught.value) and "s3cret" not in str(caught.value)


def test_a_libpq_connection_string_is_refused_not_taken_for_a_file_name(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="postgresql://"):
        Forethought.open("user=app dbname=memory host=127.0.0.1", embedder=None)
    assert backend_for(str(tmp_path / "memory.db")) == "sqlite"
    assert backend_for("postgresql://app@127.0.0.1/memory") == "postgresql"


def test_placeholders_become_psycopgs_outside_literals_only() -> None:
    assert placeholders("SELECT '?', \"a?\" FROM t WHERE x = ? AND y LIKE '5%'") == (
        "SELECT '?', \"a?\" FROM t WHERE x = %s AND y LIKE '5%%'"
    )
    assert placeholders("SELECT 10 % 3") == "SELECT 10 %% 3"


def test_a_vector_literal_keeps_every_float32_exactly() -> None:
    vector = np.array([0.1, -1e-8, 3.4028235e38], dtype=np.float32)
    parsed = np.array([float(x) for x in vector_literal(vector).strip("[]").split(",")], dtype=np.float32)
    assert np.array_equal(parsed, vector)


def test_a_role_that_may_not_create_pgvector_is_told_what_to_ask_for(postgres_server: PostgresServer) -> None:
    admin = postgres_server.dsn("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("CREATE ROLE app_owner LOGIN")
        conn.execute("CREATE DATABASE app_db OWNER app_owner")
    url = admin.replace("forethought@", "app_owner@").rsplit("/", 1)[0] + "/app_db"
    try:
        with pytest.raises(BackendError, match="ask a superuser to run CREATE EXTENSION vector"):
            PostgresStore(url)
        with psycopg.connect(postgres_server.dsn("app_db"), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")  # what the superuser does, once
        store = PostgresStore(url)  # the owner creates the rest (unaccent is a trusted extension)
        assert store.stats()["schema_version"] == 17
        store.close()
    finally:
        postgres_server.drop_database("app_db")
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("DROP ROLE app_owner")


def test_a_bulk_load_refreshes_the_planners_statistics(postgres_dsn: str) -> None:
    store = PostgresStore(postgres_dsn)
    try:
        space = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id
        now = utcnow()
        news = []
        for i in range(ANALYZE_AFTER):  # in batches, as retain_many writes them
            record = new_record(
                space, Draft(kind="note", statement=f"Bulk fact {i}."), status=Status.ACTIVE, occurred_at=now, now=now
            )
            payload = index_payload(record)
            news.append(NewRecord(record, EMBED.embed_one(payload.embed_text), payload.terms, payload.search_text))
        for start in range(0, len(news), 64):
            store.records.apply(ChangeSet(space, inserts=news[start : start + 64]))
        with psycopg.connect(postgres_dsn) as conn:
            analysed = conn.execute(
                "SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL ORDER BY relname"
            ).fetchall()
        assert [r[0] for r in analysed] == [
            "record_lexemes",
            "record_tags",
            "record_terms",
            "record_vectors",
            "records",
        ]
    finally:
        store.close()


def test_keyword_statistics_follow_inserts_and_erasure(postgres_dsn: str) -> None:
    store = PostgresStore(postgres_dsn)
    try:
        space = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id
        other = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ben")).id
        kept = _insert(store, space, "The ledger stores integer cents.")
        gone = _insert(store, space, "The ledger of Zanzibar-Quokka shipments.")
        _insert(store, other, "Another space's ledger.")

        def df() -> dict[str, int]:
            with psycopg.connect(postgres_dsn) as conn:
                rows = conn.execute("SELECT lexeme, df FROM record_lexemes WHERE space_id = %s", (space,)).fetchall()
            return {str(k): int(v) for k, v in rows}

        assert df()["ledger"] == 2 and df()["cent"] == 1 and "quokka" in df()
        store.records.forget(space, gone, actor="t")
        assert df()["ledger"] == 1 and "quokka" not in df() and "zanzibar" not in df()  # no trace of its words
        assert [h.record_id for h in store.search.keyword(space, ["ledger"], RecordFilter(), 5)] == [kept]
        store.spaces.erase(space, actor="t")
        assert df() == {}
    finally:
        store.close()


def test_common_words_never_rank_the_whole_space(postgres_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the postings budget, records holding every word come first, then the rarest words' matches."""
    monkeypatch.setattr(pg_search, "POSTINGS_BUDGET", 10)
    store = PostgresStore(postgres_dsn)
    try:
        space = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id
        for i in range(30):
            _insert(store, space, f"The deploy checklist item {i}.")
        both = _insert(store, space, "The deploy needs the rollback plan.")
        rare = _insert(store, space, "A rollback is rehearsed monthly.")
        hits = [h.record_id for h in store.search.keyword(space, ["deploy", "rollback"], RecordFilter(), 5)]
        assert hits == [both, rare]  # every word first; then the rare word only; no common-word flood
    finally:
        store.close()


def test_concurrent_writers_in_one_space_neither_deadlock_nor_retry(postgres_dsn: str) -> None:
    """Writers of one space each lock its row and update its counters: they queue, never deadlock
    (a share lock on the row did, under load, and every deadlock cost a second and a retry)."""
    store = PostgresStore(postgres_dsn)
    try:
        space = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id
        errors: list[BaseException] = []

        def write(worker: int) -> None:
            try:
                for batch in range(5):
                    now = utcnow()
                    news = []
                    for i in range(10):
                        text = f"Worker {worker} batch {batch} item {i}: the ledger stores integer cents."
                        record = new_record(
                            space, Draft(kind="note", statement=text), status=Status.ACTIVE, occurred_at=now, now=now
                        )
                        payload = index_payload(record)
                        news.append(NewRecord(record, EMBED.embed_one(text), payload.terms, payload.search_text))
                    store.records.apply(ChangeSet(space, inserts=news))
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=write, args=(w,)) for w in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert store.records.count(space, RecordFilter()) == 400
        assert store.counters.lock_retries == 0
        with psycopg.connect(postgres_dsn) as conn:
            row = conn.execute("SELECT df FROM record_lexemes WHERE space_id = %s AND lexeme = 'ledger'", (space,))
            assert row.fetchone() == (400,)
    finally:
        store.close()


def test_an_app_query_that_would_write_is_refused_and_writes_nothing(postgres_dsn: str) -> None:
    store = PostgresStore(postgres_dsn)
    try:
        store.app_tables.migrate(
            "notes", [AppMigration(1, "t", "CREATE TABLE app_notes_items (id INTEGER PRIMARY KEY, body TEXT)")]
        )
        store.app_tables.execute("notes", "INSERT INTO app_notes_items (body) VALUES (?)", ["kept"])
        with pytest.raises(InvalidInput, match="only reads"):
            store.app_tables.query(
                "notes",
                "WITH app_notes_gone AS (DELETE FROM app_notes_items RETURNING id) SELECT id FROM app_notes_gone",
            )
        assert store.app_tables.query("notes", "SELECT body FROM app_notes_items") == [{"body": "kept"}]
    finally:
        store.close()
