"""A real, throwaway PostgreSQL server for the tests.

`PostgresServer()` runs `initdb` into a fresh temporary folder and starts PostgreSQL 15 there, listening on
127.0.0.1 only, on a free port, with durability switched off (fsync, synchronous commit and full-page
writes: a test database never outlives its test run). `stop()` stops it at once and removes the folder; it
also runs at interpreter exit, so a test run that dies leaves no server behind.

As root the server runs as Debian's `postgres` user (PostgreSQL refuses to run as root); otherwise as the
current user. Binaries come from /usr/lib/postgresql/15/bin, or from the `pg_config` on the PATH.
A missing PostgreSQL or pgvector raises `PostgresUnavailable`, which says to run `make postgres`.
"""

from __future__ import annotations

import atexit
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

PG_MAJOR = 15
DEBIAN_BINDIR = Path(f"/usr/lib/postgresql/{PG_MAJOR}/bin")
SERVER_USER = "postgres"  # the Debian account the server runs as when the tests run as root
SUPERUSER = "forethought"
TEMPLATE = "forethought_template"  # the database the tests' databases are copied from (tests/conftest.py)
INSTALL_HINT = "run `make postgres` (as root) to install PostgreSQL 15 and pgvector"

SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "64MB",
    "max_connections": "100",
    "max_wal_size": "1GB",
    "log_min_messages": "warning",
}


class PostgresUnavailable(RuntimeError):
    """PostgreSQL 15 or pgvector is not installed (or the server could not be started)."""


def find_bindir() -> Path:
    """The folder of PostgreSQL 15's initdb, pg_ctl and postgres."""
    if (DEBIAN_BINDIR / "postgres").is_file():
        return DEBIAN_BINDIR
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        bindir = Path(found.stdout.strip())
        if found.returncode == 0 and (bindir / "postgres").is_file():
            return bindir
    raise PostgresUnavailable(f"PostgreSQL {PG_MAJOR} is not installed (no {DEBIAN_BINDIR}/postgres): {INSTALL_HINT}")


def check_installed(bindir: Path) -> None:
    """Raises PostgresUnavailable unless the server's tools and the pgvector extension are there."""
    for tool in ("initdb", "pg_ctl", "postgres", "pg_config"):
        if not (bindir / tool).is_file():
            raise PostgresUnavailable(f"PostgreSQL's {tool} is missing from {bindir}: {INSTALL_HINT}")
    found = subprocess.run([bindir / "pg_config", "--sharedir"], capture_output=True, text=True, check=False)
    control = Path(found.stdout.strip()) / "extension" / "vector.control"
    if found.returncode != 0 or not control.is_file():
        raise PostgresUnavailable(f"the pgvector extension is not installed (no {control}): {INSTALL_HINT}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _server_account() -> tuple[str, pwd.struct_passwd]:
    """runuser and the account the server runs as when the tests run as root."""
    runuser = shutil.which("runuser")
    try:
        account = pwd.getpwnam(SERVER_USER)
    except KeyError:
        account = None
    if runuser is None or account is None:
        raise PostgresUnavailable(f"running as root needs runuser and the {SERVER_USER!r} user: {INSTALL_HINT}")
    return runuser, account


def _dbname(name_or_dsn: str) -> str:
    if "://" in name_or_dsn or "=" in name_or_dsn:
        return str(conninfo_to_dict(name_or_dsn)["dbname"])
    return name_or_dsn


class PostgresServer:
    """One running PostgreSQL server in a temporary folder (started on construction)."""

    def __init__(self, *, user: str = SUPERUSER, start_attempts: int = 3) -> None:
        self.bindir = find_bindir()
        check_installed(self.bindir)
        self.user = user
        self._as_root = os.geteuid() == 0
        self._run_as: list[str] = []
        account = _server_account() if self._as_root else None
        if account is not None:
            self._run_as = [account[0], "-u", SERVER_USER, "--"]
        self.root = Path(tempfile.mkdtemp(prefix="forethought-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 0
        self._lock = threading.Lock()
        self._admin: psycopg.Connection[tuple[object, ...]] | None = None
        self._running = False
        self._removed = False
        atexit.register(self.stop)
        try:
            if account is not None:
                os.chown(self.root, account[1].pw_uid, account[1].pw_gid)
            self._initdb()
            self._start(start_attempts)
        except BaseException:
            self.stop()
            raise

    # -- lifecycle ---------------------------------------------------------------------------------------

    def _run(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        command = [*self._run_as, *(str(a) for a in args)]
        return subprocess.run(command, cwd=self.root, capture_output=True, text=True, check=False)

    def _initdb(self) -> None:
        done = self._run(
            self.bindir / "initdb",
            "-D",
            self.data,
            "-A",
            "trust",
            "-U",
            self.user,
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        )
        if done.returncode != 0:
            raise PostgresUnavailable(f"initdb failed ({done.returncode}): {_tail(done.stderr or done.stdout)}")
        settings = {**SETTINGS, "unix_socket_directories": str(self.root)}
        lines = "".join(f"{key} = '{value}'\n" for key, value in settings.items())
        with (self.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write("\n# throwaway test server (tests/pg_server.py)\n" + lines)

    def _start(self, attempts: int) -> None:
        """pg_ctl start on a free port; another free port when that one was taken meanwhile."""
        log = ""
        for _ in range(attempts):
            self.port = free_port()
            self.log.unlink(missing_ok=True)
            done = self._run(
                self.bindir / "pg_ctl",
                "-D",
                self.data,
                "-l",
                self.log,
                "-o",
                f"-p {self.port}",
                "-w",
                "-t",
                "60",
                "start",
            )
            if done.returncode == 0:
                self._running = True
                return
            log = self.log.read_text("utf-8", errors="replace") if self.log.exists() else ""
            if "could not bind" not in log and "already in use" not in log:
                raise PostgresUnavailable(f"PostgreSQL did not start ({done.returncode}): {_tail(log or done.stderr)}")
        raise PostgresUnavailable(f"PostgreSQL found no free port in {attempts} attempts: {_tail(log)}")

    def stop(self) -> None:
        """Stops the server at once (no checkpoint) and removes its folder. Safe to call again."""
        with self._lock:
            if self._admin is not None:
                self._admin.close()
                self._admin = None
            if self._running:
                self._run(self.bindir / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
                self._running = False
            if not self._removed:
                shutil.rmtree(self.root, ignore_errors=True)
                self._removed = True
        atexit.unregister(self.stop)

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._running

    # -- databases ---------------------------------------------------------------------------------------

    def dsn(self, dbname: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def _admin_connection(self) -> psycopg.Connection[tuple[object, ...]]:
        if not self._running:
            raise PostgresUnavailable("the test PostgreSQL server is stopped")
        if self._admin is None or self._admin.closed:
            self._admin = psycopg.connect(self.dsn("postgres"), autocommit=True)
        return self._admin

    def create_database(self, name: str | None = None, *, template: str | None = None) -> str:
        """Creates an empty database (a random name when none is given; a copy of `template` when given)
        with the vector extension in it, and returns its DSN."""
        name = name or f"test_{uuid.uuid4().hex[:16]}"
        query = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template is not None:
            query = sql.SQL("{} TEMPLATE {}").format(query, sql.Identifier(_dbname(template)))
        with self._lock:
            self._admin_connection().execute(query)
        dsn = self.dsn(name)
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        return dsn

    @contextmanager
    def database(self, *, template: str | None = None) -> Iterator[str]:
        """The DSN of a fresh database (see create_database), dropped on leaving the block."""
        dsn = self.create_database(template=template)
        try:
            yield dsn
        finally:
            self.drop_database(dsn)

    def drop_database(self, name_or_dsn: str) -> None:
        """Drops a database (by name or by DSN), closing any connection a test left open to it."""
        query = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(_dbname(name_or_dsn)))
        with self._lock:
            self._admin_connection().execute(query)


def _tail(text: str, lines: int = 8) -> str:
    return " | ".join(line for line in text.strip().splitlines()[-lines:] if line.strip())
