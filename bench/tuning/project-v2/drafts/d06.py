"""End-to-end checks for `ferrule scan --json` (run with pytest against a built binary)."""
import json
import os
import subprocess
from pathlib import Path

BIN = os.environ.get("FERRULE_BIN", "target/debug/ferrule")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, *args], capture_output=True, text=True)


def test_json_goes_to_stdout_only(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(b"a" * 1024)
    (tmp_path / "b.jpg").write_bytes(b"b" * 2048)
    res = run("scan", "--json", str(tmp_path))
    assert res.returncode == 0
    records = [json.loads(line) for line in res.stdout.splitlines()]
    assert {r["path"] for r in records} == {"a.jpg", "b.jpg"}
    for r in records:
        assert r["hash"] == r["hash"].lower() and len(r["hash"]) == 64
    assert "scanned 2 files" in res.stderr


def test_symlink_not_followed_by_default(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "x.jpg").write_bytes(b"x")
    (tmp_path / "loop").symlink_to(tmp_path)
    res = run("scan", "--json", str(tmp_path))
    paths = [json.loads(line)["path"] for line in res.stdout.splitlines()]
    assert paths == ["real/x.jpg"]


def test_partial_failure_exit_code(tmp_path: Path) -> None:
    locked = tmp_path / "locked.jpg"
    locked.write_bytes(b"z")
    locked.chmod(0)
    (tmp_path / "ok.jpg").write_bytes(b"o")
    res = run("scan", "--json", str(tmp_path))
    assert res.returncode == 3
    print(res.stderr)
