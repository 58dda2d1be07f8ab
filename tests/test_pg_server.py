"""The throwaway PostgreSQL server the PostgreSQL tests run against (tests/pg_server.py), started for real."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from tests import pg_server
from tests.pg_server import TEMPLATE, PostgresServer, PostgresUnavailable


def _one(dsn: str, query: str) -> object:
    with psycopg.connect(dsn) as conn:
        row = conn.execute(query).fetchone()
    assert row is not None
    return row[0]


def _databases(server: PostgresServer) -> set[str]:
    with psycopg.connect(server.dsn()) as conn:
        return {str(row[0]) for row in conn.execute("SELECT datname FROM pg_database")}


def test_the_server_is_a_running_postgresql_15(postgres_server: PostgresServer) -> None:
    assert postgres_server.running
    assert str(_one(postgres_server.dsn(), "SHOW server_version_num")).startswith("15")
    assert _one(postgres_server.dsn(), "SELECT current_user") == "forethought"
    assert _one(postgres_server.dsn(), "SELECT rolsuper FROM pg_roles WHERE rolname = current_user") is True


def test_the_server_listens_on_127_0_0_1_only(postgres_server: PostgresServer) -> None:
    dsn = postgres_server.dsn()
    assert _one(dsn, "SHOW listen_addresses") == "127.0.0.1"
    assert str(_one(dsn, "SELECT inet_server_addr()")) == "127.0.0.1"
    assert _one(dsn, "SELECT inet_server_port()") == postgres_server.port
    assert Path(str(_one(dsn, "SHOW unix_socket_directories"))) == postgres_server.root


def test_the_server_trades_durability_for_speed(postgres_server: PostgresServer) -> None:
    dsn = postgres_server.dsn()
    for setting in ("fsync", "synchronous_commit", "full_page_writes"):
        assert _one(dsn, f"SHOW {setting}") == "off", setting
    assert _one(dsn, "SHOW max_connections") == "100"
    assert _one(dsn, "SHOW shared_buffers") == "64MB"
    assert _one(dsn, "SHOW server_encoding") == "UTF8"
    assert _one(dsn, "SELECT datcollate FROM pg_database WHERE datname = current_database()") == "C"


def test_the_server_never_runs_as_root(postgres_server: PostgresServer) -> None:
    expected = pwd.getpwnam(pg_server.SERVER_USER).pw_uid if os.geteuid() == 0 else os.geteuid()
    with psycopg.connect(postgres_server.dsn()) as conn:  # the backend lives as long as its connection
        backend = conn.execute("SELECT pg_backend_pid()").fetchall()[0][0]
        status = Path(f"/proc/{backend}/status").read_text().splitlines()
    real_uid = next(int(line.split()[1]) for line in status if line.startswith("Uid:"))
    assert real_uid == expected != 0
    assert postgres_server.data.stat().st_uid == expected


def test_a_database_has_the_vector_extension(postgres_dsn: str) -> None:
    version = _one(postgres_dsn, "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    assert isinstance(version, str)
    assert tuple(int(part) for part in version.split(".")[:2]) >= (0, 5)  # HNSW came with 0.5


def test_an_hnsw_cosine_index_is_built_and_used(postgres_dsn: str) -> None:
    with psycopg.connect(postgres_dsn) as conn:
        conn.execute("CREATE TABLE items (id int PRIMARY KEY, embedding vector(3) NOT NULL)")
        rows = [(1, "[1,0,0]"), (2, "[0,1,0]"), (3, "[0,0,1]"), (4, "[0.9,0.1,0]")]
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO items VALUES (%s, %s)", rows)
        conn.execute("CREATE INDEX items_hnsw ON items USING hnsw (embedding vector_cosine_ops)")
        conn.execute("SET enable_seqscan = off")
        query = "SELECT id, embedding <=> %s AS distance FROM items ORDER BY embedding <=> %s LIMIT 2"
        probe = "[1,0.05,0]"
        plan = "\n".join(str(row[0]) for row in conn.execute("EXPLAIN " + query, (probe, probe)))
        found = conn.execute(query, (probe, probe)).fetchall()
    assert "items_hnsw" in plan
    assert [row[0] for row in found] == [1, 4]
    assert 0 <= found[0][1] < found[1][1] < 0.1


def test_each_test_database_is_its_own(postgres_server: PostgresServer, postgres_dsn: str) -> None:
    with postgres_server.database(template=TEMPLATE) as other:
        assert conninfo_to_dict(other)["dbname"] != conninfo_to_dict(postgres_dsn)["dbname"]
        with psycopg.connect(postgres_dsn) as conn:
            conn.execute("CREATE TABLE mine (x int)")
        assert _one(other, "SELECT to_regclass('public.mine')") is None
        assert _one(postgres_dsn, "SELECT to_regclass('public.mine')") is not None
        assert _one(other, "SELECT count(*) FROM pg_extension WHERE extname = 'vector'") == 1
    assert str(conninfo_to_dict(other)["dbname"]) not in _databases(postgres_server)


def test_a_database_is_dropped_even_with_a_connection_left_open(postgres_server: PostgresServer) -> None:
    dsn = postgres_server.create_database("left_open")
    assert dsn == postgres_server.dsn("left_open")
    conn = psycopg.connect(dsn)
    try:
        postgres_server.drop_database(dsn)
        assert "left_open" not in _databases(postgres_server)
        with pytest.raises(psycopg.OperationalError):
            conn.execute("SELECT 1")
    finally:
        conn.close()


def test_stop_ends_the_server_and_removes_its_folder() -> None:
    server = PostgresServer()
    root, dsn = server.root, server.dsn()
    assert (server.data / "PG_VERSION").read_text().strip() == "15"
    assert _one(dsn, "SELECT 1") == 1
    server.stop()
    assert not server.running
    assert not root.exists()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(dsn, connect_timeout=5)
    server.stop()  # a second stop is harmless
    assert not root.exists()


def test_two_servers_run_side_by_side(postgres_server: PostgresServer) -> None:
    with PostgresServer() as second:
        assert second.port != postgres_server.port
        assert second.root != postgres_server.root
        assert _one(second.dsn(), "SELECT inet_server_port()") == second.port
    assert not second.root.exists()
    assert _one(postgres_server.dsn(), "SELECT 1") == 1


def test_missing_binaries_say_how_to_install_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg_server, "DEBIAN_BINDIR", tmp_path / "nowhere")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(PostgresUnavailable, match="make postgres"):
        pg_server.find_bindir()


def test_a_missing_pgvector_says_how_to_install_it(tmp_path: Path) -> None:
    pg_config = tmp_path / "pg_config"
    pg_config.write_text(f"#!/bin/sh\necho {tmp_path / 'share'}\n")
    pg_config.chmod(0o755)
    for tool in ("initdb", "pg_ctl", "postgres"):
        (tmp_path / tool).write_text("")
    with pytest.raises(PostgresUnavailable, match=r"pgvector.*make postgres"):
        pg_server.check_installed(tmp_path)
    with pytest.raises(PostgresUnavailable, match=r"initdb.*make postgres"):
        pg_server.check_installed(tmp_path / "empty")
