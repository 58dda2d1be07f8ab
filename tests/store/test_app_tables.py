"""App tables: an app's own relational data, migrated in the store's history (run on every backend)."""

from __future__ import annotations

import pytest

from forethought import BackendError, Conflict, InvalidInput
from forethought.domain import SpaceKey
from forethought.store.base import AppMigration, Store

# A small support app: customers first, tickets (and an index) a release later.
SUPPORT = [
    AppMigration(
        1,
        "customers",
        "-- the people tickets come from\n"
        "CREATE TABLE app_support_customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);",
    ),
    AppMigration(
        2,
        "tickets",
        "CREATE TABLE app_support_tickets (\n"
        "    id INTEGER PRIMARY KEY,\n"
        "    customer_id INTEGER NOT NULL REFERENCES app_support_customers(id),\n"
        "    title TEXT NOT NULL\n"
        ");\n"
        "CREATE INDEX app_support_tickets_by_customer ON app_support_tickets (customer_id)",
    ),
]


def migrated(store: Store) -> Store:
    assert store.app_tables.migrate("support", SUPPORT) == 2
    return store


def test_a_two_step_migration_applies_in_order_once(store: Store) -> None:
    assert store.app_tables.version("support") == 0
    assert store.app_tables.migrate("support", SUPPORT[:1]) == 1
    assert store.app_tables.version("support") == 1
    assert store.app_tables.migrate("support", SUPPORT) == 2
    assert store.app_tables.migrate("support", SUPPORT) == 2  # nothing left to do
    assert store.app_tables.version("support") == 2
    assert store.app_tables.version("career") == 0
    assert store.stats()["schema_version"] == 17  # the core's version is its own


def test_rows_are_written_with_bound_parameters_and_read_as_dicts(store: Store) -> None:
    tables = migrated(store).app_tables
    assert tables.execute("support", "INSERT INTO app_support_customers (name) VALUES (?)", ["Acme"]) == 1
    assert (
        tables.execute_many("support", "INSERT INTO app_support_customers (name) VALUES (?)", [["O'Brien"], ["Zed"]])
        == 2
    )
    acme = tables.query("support", "SELECT id FROM app_support_customers WHERE name = ?", ["Acme"])[0]["id"]
    tables.execute_many(
        "support",
        "INSERT INTO app_support_tickets (customer_id, title) VALUES (?, ?)",
        [(acme, "Login fails"), (acme, "'; DROP TABLE records; --")],
    )
    rows = tables.query(
        "support",
        "SELECT c.name, t.title FROM app_support_tickets t JOIN app_support_customers c ON c.id = t.customer_id"
        " ORDER BY t.id",
    )
    assert rows == [
        {"name": "Acme", "title": "Login fails"},
        {"name": "Acme", "title": "'; DROP TABLE records; --"},
    ]
    assert tables.query("support", "SELECT name FROM app_support_customers WHERE name = ?", ["O'Brien"]) == [
        {"name": "O'Brien"}
    ]
    assert tables.execute("support", "DELETE FROM app_support_tickets WHERE customer_id = ?", [acme]) == 2


def test_a_write_that_breaks_a_constraint_is_a_conflict_and_changes_nothing(store: Store) -> None:
    tables = migrated(store).app_tables
    tables.execute("support", "INSERT INTO app_support_customers (name) VALUES (?)", ["Acme"])
    with pytest.raises(Conflict):
        tables.execute_many("support", "INSERT INTO app_support_customers (name) VALUES (?)", [["New"], ["Acme"]])
    assert tables.query("support", "SELECT name FROM app_support_customers") == [{"name": "Acme"}]


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TABLE customers (id INTEGER PRIMARY KEY)",  # no prefix
        "CREATE TABLE app_career_jobs (id INTEGER PRIMARY KEY)",  # another app's prefix
        "CREATE TABLE app_support_x (id INTEGER REFERENCES spaces(id))",  # a core table
        "CREATE INDEX app_support_i ON records (kind)",
        "CREATE TABLE app_support_y (id INTEGER); DROP TABLE records",
        "ATTACH DATABASE 'other.db' AS other",
    ],
)
def test_a_migration_touching_a_foreign_table_is_refused_before_anything_runs(store: Store, sql: str) -> None:
    steps = [*SUPPORT, AppMigration(3, "bad", sql)]
    with pytest.raises(InvalidInput):
        store.app_tables.migrate("support", steps)
    assert store.app_tables.version("support") == 0  # the good steps did not run either
    with pytest.raises(BackendError, match="no such table"):
        store.app_tables.query("support", "SELECT * FROM app_support_customers")


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT statement FROM records",
        'SELECT * FROM "records"',
        "SELECT c.name FROM app_support_customers c, records r",  # a comma join
        "SELECT name FROM app_support_customers WHERE id IN (SELECT rowid FROM records)",
        "SELECT value FROM meta WHERE key = 'space_secret'",
        "SELECT name FROM sqlite_master",
        "SELECT name FROM app_support_customers; DELETE FROM records",
        "PRAGMA table_info(records)",
    ],
)
def test_a_query_of_a_foreign_table_is_refused(store: Store, sql: str) -> None:
    tables = migrated(store).app_tables
    with pytest.raises(InvalidInput):
        tables.query("support", sql)


def test_queries_only_read_and_execute_only_writes_rows(store: Store) -> None:
    tables = migrated(store).app_tables
    with pytest.raises(InvalidInput):
        tables.query("support", "DELETE FROM app_support_customers")
    with pytest.raises(InvalidInput):
        tables.execute("support", "DROP TABLE app_support_tickets")
    with pytest.raises(InvalidInput):
        tables.execute("support", "CREATE TABLE app_support_more (id INTEGER)")
    with pytest.raises(InvalidInput):
        tables.execute("support", "UPDATE spaces SET workspace = ?", ["stolen"])
    # The core is untouched and still works.
    space = store.spaces.resolve(SpaceKey(workspace="w", subject_id="ana"))
    assert [s.id for s in store.spaces.list("w")] == [space.id]


@pytest.mark.parametrize("app", ["", "Support", "my_app", "my-app", "1st", "x" * 33])
def test_app_names_are_short_lowercase_words(store: Store, app: str) -> None:
    with pytest.raises(InvalidInput):
        store.app_tables.migrate(app, [])
    with pytest.raises(InvalidInput):
        store.app_tables.query(app, "SELECT 1")


def test_migrations_must_be_numbered_without_gaps(store: Store) -> None:
    with pytest.raises(InvalidInput, match="without gaps"):
        store.app_tables.migrate("support", [SUPPORT[1]])
    assert store.app_tables.version("support") == 0


def test_a_database_newer_than_the_app_is_refused(store: Store) -> None:
    migrated(store)
    with pytest.raises(BackendError, match="newer than the support app understands"):
        store.app_tables.migrate("support", SUPPORT[:1])


def test_a_failing_step_rolls_back_every_pending_step(store: Store) -> None:
    broken = [*SUPPORT, AppMigration(3, "broken", "CREATE TABLE app_support_customers (id INTEGER)")]
    with pytest.raises(BackendError):
        store.app_tables.migrate("support", broken)
    assert store.app_tables.version("support") == 0
    assert migrated(store).app_tables.version("support") == 2
