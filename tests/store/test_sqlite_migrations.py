"""The SQLite migration history: databases made before it was keyed by component open and move
forward, and app migrations survive a reopen and a race (backend-specific behaviour)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from forethought import InvalidInput
from forethought.domain import SpaceKey
from forethought.store.base import AppMigration
from forethought.store.sqlite import SQLiteStore
from forethought.store.sqlite.driver import connect
from forethought.store.sqlite.migrate import available_migrations

STEPS = [
    AppMigration(1, "catalogue", "CREATE TABLE app_career_internships (id INTEGER PRIMARY KEY, title TEXT NOT NULL)"),
    AppMigration(2, "city", "ALTER TABLE app_career_internships ADD COLUMN city TEXT"),
]


def make_version_5_database(path: Path) -> None:
    """What Forethought made before migration 6: migrations 1-5 under a history keyed by version."""
    conn = connect(path)
    conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    for migration in available_migrations()[:5]:
        conn.executescript(migration.sql)
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, "2026-01-01T00:00:00Z"),
        )
    conn.execute("INSERT INTO meta (key, value) VALUES ('space_secret', ?)", ("ab" * 32,))
    conn.close()


def test_a_database_made_before_migration_6_opens_and_migrates_forward(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    make_version_5_database(path)
    store = SQLiteStore(path)
    try:
        with store.raw() as conn:
            history = conn.execute(
                "SELECT component, version, name, applied_at FROM schema_migrations ORDER BY version"
            ).fetchall()
        assert [(c, v) for c, v, _, _ in history] == [("core", v) for v in range(1, 18)]
        assert history[0][3] == "2026-01-01T00:00:00Z"  # the old rows were carried over, not rewritten
        assert store.stats()["schema_version"] == 17
        # The old secret is kept, so existing space ids stay what they were.
        with store.raw() as conn:
            assert conn.execute("SELECT value FROM meta WHERE key = 'space_secret'").fetchone()[0] == "ab" * 32
        space = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ana"))
        assert store.app_tables.migrate("career", STEPS) == 2
    finally:
        store.close()
    reopened = SQLiteStore(path)
    try:
        assert reopened.spaces.resolve(SpaceKey(workspace="w", subject_id="ana"), create=False) == space
        assert reopened.app_tables.version("career") == 2
    finally:
        reopened.close()


def test_app_tables_survive_a_reopen_and_are_not_migrated_twice(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    first = SQLiteStore(path)
    first.app_tables.migrate("career", STEPS)
    first.app_tables.execute(
        "career", "INSERT INTO app_career_internships (title, city) VALUES (?, ?)", ["Data intern", "Lyon"]
    )
    first.close()
    second = SQLiteStore(path)
    try:
        assert second.app_tables.migrate("career", STEPS) == 2  # ALTER TABLE would fail if run again
        assert second.app_tables.query("career", "SELECT title, city FROM app_career_internships") == [
            {"title": "Data intern", "city": "Lyon"}
        ]
        with second.raw() as conn:
            rows = conn.execute(
                "SELECT component, version FROM schema_migrations WHERE component != 'core' ORDER BY version"
            ).fetchall()
        assert rows == [("app:career", 1), ("app:career", 2)]
    finally:
        second.close()


def test_racing_processes_apply_an_app_migration_once(tmp_path: Path) -> None:
    path = tmp_path / "race.db"
    SQLiteStore(path).close()
    stores = [SQLiteStore(path) for _ in range(3)]
    reached: list[int] = []
    start = threading.Barrier(len(stores))

    def migrate(store: SQLiteStore) -> None:
        start.wait()
        reached.append(store.app_tables.migrate("career", STEPS))

    threads = [threading.Thread(target=migrate, args=(s,)) for s in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert reached == [2, 2, 2]
        with stores[0].raw() as conn:
            count = conn.execute("SELECT COUNT(*) FROM schema_migrations WHERE component = 'app:career'").fetchone()
        assert count[0] == 2
    finally:
        for store in stores:
            store.close()


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM [records]",
        "SELECT * FROM `spaces`",
        "SELECT i.title FROM app_career_internships i, meta m",
        "WITH app_career_ids AS (SELECT id FROM app_career_internships) SELECT * FROM app_career_ids, api_keys",
    ],
)
def test_the_authorizer_refuses_core_tables_the_lexical_check_cannot_see(tmp_path: Path, sql: str) -> None:
    store = SQLiteStore(tmp_path / "guard.db")
    try:
        store.app_tables.migrate("career", STEPS)
        with pytest.raises(InvalidInput, match="may only read tables named app_career_"):
            store.app_tables.query("career", sql)
        # The guard is lifted afterwards: the core reads its own tables as before.
        assert store.spaces.list() == []
    finally:
        store.close()


def test_migration_7_renames_the_project_kinds_of_earlier_versions(tmp_path: Path) -> None:
    from forethought import Forethought
    from forethought.apps.project.kinds import KINDS

    path = tmp_path / "kinds.db"
    with Forethought.open(path, embedder="hashing") as memory:
        project, notes = memory.scope("project", "ledger"), memory.scope("generic", "notes")
        ids = [memory.retain(project, f"Rule {i}.", kind="decision").record.id for i in range(4)]
        other = memory.retain(notes, "A note whose kind word happens to be old.", kind="note").record.id
    old = [("security_constraint", '{"rule": "r", "area": "auth"}'),
           ("api_contract", '{"rule": "r", "subject": "X-Id"}'),
           ("deployment", '{"rule": "r", "environment": "prod"}'),
           ("incident", '{"what": "the outage", "impact": "two hours down", "date": "March"}')]  # fmt: skip
    conn = connect(path)
    for rid, (kind, attrs) in zip(ids, old, strict=True):
        conn.execute("UPDATE records SET kind = ?, attributes = ? WHERE id = ?", (kind, attrs, rid))
    conn.execute("UPDATE records SET kind = 'deployment' WHERE id = ?", (other,))  # not a project space
    conn.execute("DELETE FROM schema_migrations WHERE component = 'core' AND version = 7")
    conn.commit()
    conn.close()
    with Forethought.open(path, embedder="hashing") as memory:
        project = memory.scope("project", "ledger")
        got = [memory.get(project, rid) for rid in ids]
        assert [r.kind for r in got] == ["constraint", "constraint", "process", "failed_approach"]
        assert got[3].attributes == {"approach": "the outage", "why_failed": "two hours down", "date": "March"}
        for r in got:
            KINDS[r.kind].attributes.model_validate(r.attributes)
        assert memory.get(memory.scope("generic", "notes"), other).kind == "deployment"


def test_migration_8_indexes_the_turns_of_sessions_captured_before_it(tmp_path: Path) -> None:
    path = tmp_path / "v7.db"
    store = SQLiteStore(path)
    try:
        space = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ana")).id
    finally:
        store.close()
    # Back to version 7 with a session captured then: no turn index, turns written as v7 did.
    conn = connect(path)
    conn.execute("DROP TABLE turns_fts")
    conn.execute("DELETE FROM schema_migrations WHERE component = 'core' AND version = 8")
    conn.execute(
        "INSERT INTO sessions (id, space_id, title, source, created_at, metadata)"
        " VALUES ('s1', ?, 't', 'import', '2026-01-01T00:00:00Z', '{}')",
        (space,),
    )
    conn.execute("INSERT INTO turns VALUES ('s1', 0, 'user', NULL, 'Keep the ferry manifest in UTC.', NULL)")
    conn.execute("INSERT INTO turns VALUES ('s1', 1, 'tool', NULL, 'ferry manifest dump', NULL)")
    conn.commit()
    conn.close()
    reopened = SQLiteStore(path)
    try:
        assert reopened.stats()["schema_version"] == 17
        hits = reopened.sessions.search_turns(space, ["ferry"], 10)
        assert [(h.session_id, h.turn_index) for h in hits] == [("s1", 0)]  # the person's turn, not the tool's
    finally:
        reopened.close()
