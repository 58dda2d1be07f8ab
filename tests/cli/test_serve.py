"""`forethought serve`: the real process, on a free loopback port, over a temporary database."""

from __future__ import annotations

import re
import signal
import socket
import stat
from pathlib import Path

import httpx
import psycopg

from forethought import Forethought
from tests.cli.conftest import Cli
from tests.reliability.server import ServerProcess


def test_serve_demo_seeds_once_and_keeps_its_key(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    key_file = tmp_path / "serve.db.demo-key"
    with ServerProcess(db, args=("--demo",)) as server:
        url, proc = server.url, server.process
        assert proc is not None
        key = key_file.read_text("utf-8").strip()
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        headers = {"Authorization": f"Bearer {key}"}
        subjects = httpx.get(f"{url}/v1/apps/career/subjects", headers=headers).json()["items"]
        assert [s["subject_id"] for s in subjects] == ["maya"]
        assert httpx.get(f"{url}/v1/keys", headers=headers).status_code == 200  # the demo key is an admin
        first = httpx.get(f"{url}/ready").json()["store"]["records"]
        assert first > 0
        assert httpx.get(f"{url}/v1/apps/career/subjects").status_code == 401
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
        printed = server.output()
    assert key in printed and "127.0.0.1" in printed
    with ServerProcess(db, args=("--demo",)) as server:
        url = server.url
        assert key_file.read_text("utf-8").strip() == key  # still valid, so reused
        assert httpx.get(f"{url}/ready").json()["store"]["records"] == first  # seeding is idempotent
        again = httpx.get(f"{url}/v1/apps/project/subjects", headers={"Authorization": f"Bearer {key}"})
        assert sorted(s["subject_id"] for s in again.json()["items"]) == [
            "storefront",
            "storefront-legacy",
            "tillpoint",
        ]


def test_serve_without_demo_has_no_demo_key_and_stops_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "plain.db"
    with ServerProcess(db) as server:
        url, proc = server.url, server.process
        assert proc is not None
        ready = httpx.get(f"{url}/ready").json()
        assert ready["heuristic"] is True and ready["store"]["records"] == 0
        proc.send_signal(signal.SIGTERM)  # what a service manager sends: a clean stop, exit 0
        assert proc.wait(timeout=20) == 0
    assert not (tmp_path / "plain.db.demo-key").exists()


def test_serve_reports_a_port_in_use_in_one_line(cli: Cli) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", "--port", str(port))
    assert result.code != 0
    assert "Traceback" not in result.err and f"{port}" in result.err


def test_serve_refuses_a_bad_port(cli: Cli) -> None:
    result = cli("serve", "--port", "http")
    assert result.code == 2 and "not a TCP port" in result.err
    mcp = cli("mcp", "--transport", "http", "--port", "70000")
    assert mcp.code == 2 and "not a TCP port: '70000'" in mcp.err


SECRETS = [
    "sk-proj-" + "Q7hV2mXc9LpR4tYw8ZbN1sKd6FgJ3aUe",
    "ghp_" + "x8Kd2LmQ7pRt4VwZ9bNc1SfGh6JkYe3A0uTo",
    "maria.gomez@example.com",
]


def test_the_access_log_at_info_never_shows_what_a_query_string_carried(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    with ServerProcess(db, args=("--log-level", "info")) as server:
        url = server.url
        for secret in SECRETS:
            httpx.get(f"{url}/web/apps/project/tillpoint/brief", params={"task": f"deploy with {secret}"})
            httpx.get(f"{url}/web/apps/project/tillpoint/memory", params={"q": secret, "kind": "decision"})
            httpx.get(f"{url}/v1/apps/project/subjects/{secret}/records", params={"cursor": secret})
        server.stop()
        log = server.output()
    assert "GET /web/apps/project/tillpoint/brief?task=*** HTTP/1.1" in log  # the request is still logged
    assert "GET /web/apps/project/tillpoint/memory?q=***&kind=*** HTTP/1.1" in log
    for secret in SECRETS:
        assert secret not in log and secret.replace("@", "%40") not in log, secret


def test_serve_refuses_a_host_it_is_not_bound_to(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "host.db", args=("--allowed-host", "memory.internal")) as server:
        for path in ("/ready", "/metrics"):
            refused = httpx.get(f"{server.url}{path}", headers={"Host": "rebound.attacker.example"})
            assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_host"
            assert httpx.get(f"{server.url}{path}", headers={"Host": "memory.internal:8765"}).status_code == 200
            assert httpx.get(f"{server.url}{path}", headers={"Host": "localhost"}).status_code == 200


def test_several_workers_on_postgresql_share_browser_sessions_and_keys(tmp_path: Path, postgres_dsn: str) -> None:
    """`serve --workers 2`: two server processes on one port over one database; a browser logged in
    through one is known to whichever answers next (20 requests, each on a new connection)."""
    with Forethought.open(postgres_dsn, embedder="hashing") as memory:
        _, key = memory.create_api_key("acme", name="web")
    server = ServerProcess(tmp_path / "log-anchor.db", args=("--workers", "2"))
    server.env["FORETHOUGHT_DB"] = postgres_dsn
    with server:
        fresh = httpx.Limits(max_keepalive_connections=0)  # a new connection, so any worker, each time
        with httpx.Client(base_url=server.url, limits=fresh, follow_redirects=True, timeout=30) as browser:
            form = browser.get("/web/login")
            token = re.search(r'name="login_token" value="([^"]+)"', form.text)
            assert token is not None
            browser.post("/web/login", data={"key": key, "login_token": token.group(1), "next": "/web"})
            pages = [browser.get("/web") for _ in range(20)]
            assert all(p.status_code == 200 and p.url.path == "/web" for p in pages)
            api = httpx.get(f"{server.url}/v1/workspace", headers={"Authorization": f"Bearer {key}"})
            assert api.status_code == 200
        with psycopg.connect(postgres_dsn) as conn:
            processes = conn.execute(
                "SELECT COUNT(DISTINCT pid) FROM pg_stat_activity WHERE application_name = 'forethought'"
            ).fetchone()
        assert processes is not None and processes[0] >= 3  # the supervisor and each worker hold their own
        printed = server.output()
    assert "2 worker processes" in printed and "hunter" not in printed
