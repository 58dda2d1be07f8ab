"""`forethought serve`: the real process, on a free loopback port, over a temporary database."""

from __future__ import annotations

import signal
import socket
import stat
from pathlib import Path

import httpx

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
        assert [s["subject_id"] for s in again.json()["items"]] == ["tillpoint"]


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
