"""The CLI on a PostgreSQL database (`--db postgresql://...` or FORETHOUGHT_DB): the same commands,
the same answers, and the URL's password never printed."""

from __future__ import annotations

import psycopg

from tests.cli.conftest import Cli


def _cli(dsn: str) -> Cli:
    return Cli(dsn)


def test_retain_recall_supersede_and_forget_on_postgresql(postgres_dsn: str) -> None:
    cli = _cli(postgres_dsn)
    old = cli(
        "retain", "--space", "p", "--kind", "decision", "--occurred-at", "2026-01-01", "Use MySQL for the ledger."
    )
    assert old.code == 0, old.err
    new = cli(
        "supersede",
        "--space",
        "p",
        "--json",
        "--occurred-at",
        "2026-02-01",
        old.out.strip(),
        "Use Postgres for the ledger.",
    )
    assert new.code == 0, new.err
    hits = cli("recall", "--space", "p", "--json", "ledger").json()
    assert [h["statement"] for h in hits] == ["Use Postgres for the ledger."]
    then = cli("recall", "--space", "p", "--json", "--as-of", "2026-01-15", "ledger").json()
    assert [h["id"] for h in then] == [old.out.strip()]
    codename = cli("retain", "--space", "p", "--kind", "note", "Marmalade-Otter-77 codename.").out.strip()
    assert cli("recall", "--space", "p", "--json", "Marmalade-Otter-77").json()[0]["id"] == codename
    assert cli("forget", "--space", "p", "--json", codename).json()["forgotten"] == 1
    assert codename not in {h["id"] for h in cli("recall", "--space", "p", "--json", "Marmalade-Otter-77").json()}
    with psycopg.connect(postgres_dsn) as conn:  # the rows are in PostgreSQL, and only the kept ones
        statements = [r[0] for r in conn.execute("SELECT statement FROM records ORDER BY seq")]
    assert statements == ["Use MySQL for the ledger.", "Use Postgres for the ledger."]


def test_doctor_names_the_backend_and_never_the_password(postgres_dsn: str) -> None:
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute("ALTER ROLE forethought PASSWORD 'hunter2-Secret'")  # trust auth: not asked, still in the URL
    url = postgres_dsn.replace("forethought@", "forethought:hunter2-Secret@")
    cli = _cli(url)
    assert cli("retain", "--space", "p", "--kind", "note", "We deploy on Tuesdays.").code == 0
    doctor = cli("doctor", "--json")
    store = doctor.json()["store"]
    assert store["kind"] == "postgresql" and store["ok"] is True and store["schema_version"] == 17
    assert "hunter2" not in doctor.out + doctor.err


def test_a_database_that_cannot_be_reached_is_a_clear_error(postgres_dsn: str) -> None:
    unreachable = postgres_dsn.rsplit(":", 1)[0] + ":1/none"
    result = _cli(unreachable.replace("forethought@", "forethought:pw-Hidden@"))("recall", "--space", "p", "x")
    assert result.code != 0
    assert "could not connect to PostgreSQL" in result.err and "Traceback" not in result.err
    assert "pw-Hidden" not in result.err
