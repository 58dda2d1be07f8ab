"""Every CLI command through the installed `forethought` entry point."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import Cli


def test_retain_prints_the_new_id_and_is_idempotent_by_external_id(cli: Cli) -> None:
    first = cli(
        "retain",
        "--space",
        "tillpoint",
        "--kind",
        "decision",
        "--tag",
        "db",
        "--id",
        "adr-7",
        "--occurred-at",
        "2026-03-01",
        "Use Postgres for the ledger.",
    )
    assert first.code == 0, first.err
    record_id = first.out.strip()
    assert len(record_id) == 26
    again = cli(
        "retain",
        "--json",
        "--space",
        "tillpoint",
        "--kind",
        "decision",
        "--id",
        "adr-7",
        "Use Postgres for the ledger.",
    )
    assert again.code == 0 and again.json() == {"id": record_id, "handle": again.json()["handle"], "created": False}
    shown = cli("show", "--space", "tillpoint", "--json", record_id).json()
    assert shown["tags"] == ["db"] and shown["occurred_at"].startswith("2026-03-01")


def test_recall_json_shape_and_filters(cli: Cli) -> None:
    cli("retain", "--space", "p", "--kind", "decision", "--tag", "db", "Use Postgres for the ledger.")
    cli("retain", "--space", "p", "--kind", "convention", "Create PrismaClient once in lib/db.ts.")
    result = cli("recall", "--space", "p", "--json", "--k", "5", "PrismaClient")
    assert result.code == 0, result.err
    hits = result.json()
    assert hits[0]["statement"] == "Create PrismaClient once in lib/db.ts."
    assert set(hits[0]) == {"id", "handle", "kind", "statement", "status", "score", "why"}
    assert hits[0]["why"]["terms"]["rank"] == 1
    only = cli("recall", "--space", "p", "--json", "--kind", "decision", "--tag", "db", "ledger Postgres").json()
    assert [h["kind"] for h in only] == ["decision"]
    human = cli("recall", "--space", "p", "ledger")
    assert "why:" in human.out and "Postgres" in human.out


def test_supersede_retract_history_and_as_of(cli: Cli) -> None:
    old = cli(
        "retain", "--space", "p", "--kind", "deployment", "--occurred-at", "2026-01-01", "Releases ship on Tuesday."
    ).out.strip()
    new = cli(
        "supersede",
        "--json",
        "--space",
        "p",
        "--occurred-at",
        "2026-02-01",
        "--why",
        "moved",
        old,
        "Releases ship on Thursday.",
    )
    assert new.code == 0, new.err
    new_id = new.json()["id"]
    current = cli("recall", "--space", "p", "--json", "releases ship").json()
    assert [h["id"] for h in current] == [new_id]
    then = cli("recall", "--space", "p", "--json", "--as-of", "2026-01-15", "releases ship").json()
    assert [h["id"] for h in then] == [old]
    history = cli("history", "--space", "p", "--json", new_id).json()
    assert [r["id"] for r in history["chain"]] == [old, new_id]
    assert cli("history", "--space", "p", new_id).out.count("superseded") >= 1
    retracted = cli("retract", "--space", "p", "--why", "wrong", new_id)
    assert retracted.code == 0 and "retracted" in retracted.out
    assert cli("recall", "--space", "p", "--json", "releases ship").json() == []


def test_forget_then_nothing_finds_it(cli: Cli) -> None:
    rid = cli("retain", "--space", "p", "--kind", "note", "Marmalade-Otter-77 codename.").out.strip()
    assert cli("forget", "--space", "p", "--json", rid).json() == {"forgotten": 1, "purged": True}
    assert cli("recall", "--space", "p", "--json", "Marmalade-Otter-77").json() == []
    missing = cli("show", "--space", "p", rid)
    assert missing.code == 3 and "no record" in missing.err


def test_export_import_round_trip_with_progress(cli: Cli, tmp_path: Path) -> None:
    for i in range(5):
        cli("retain", "--space", "src", "--kind", "note", "--id", f"n{i}", f"Note number {i} about gardens.")
    out = tmp_path / "x.jsonl"
    assert cli("export", "--space", "src", str(out)).code == 0
    imported = cli("import", "--space", "dst", str(out))
    assert imported.code == 0, imported.err
    assert "imported 5 records" in imported.out
    assert "importing [" in imported.err and "5/5" in imported.err  # the progress bar
    assert len(cli("recall", "--space", "dst", "--json", "--k", "10", "gardens").json()) == 5


def test_db_flag_works_before_and_after_the_command(cli: Cli, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    assert cli("--db", str(other), "retain", "--space", "a", "--kind", "note", "One.").code == 0
    assert cli("retain", "--db", str(other), "--space", "a", "--kind", "note", "Two.").code == 0
    assert len(cli("recall", "--db", str(other), "--space", "a", "--json", "one two").json()) == 2
    assert not cli.db.exists()


def test_default_database_location(tmp_path: Path) -> None:
    import os
    import subprocess

    from tests.cli.conftest import FORETHOUGHT

    env = {k: v for k, v in os.environ.items() if k != "FORETHOUGHT_DB"}
    env["FORETHOUGHT_EMBEDDER"] = "hashing"
    proc = subprocess.run(
        [FORETHOUGHT, "retain", "--space", "a", "--kind", "note", "Hello."],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / ".forethought" / "forethought.db").exists()


def test_demo_runs_the_tour(cli: Cli) -> None:
    result = cli("demo")
    assert result.code == 0, result.err
    for step in ("retain", "recall", "supersede", "as of", "retract", "history", "export", "forget"):
        assert step in result.out
    assert "found afterwards: False" in result.out
    assert "[REDACTED:api_key]" in result.out and "sk-proj-" not in result.out
    assert "flags: injection" in result.out and "check: error" in result.out
    assert "stages: identity" in result.out
