"""Bad input: a one-line error, a non-zero exit, never a traceback, and nothing changed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.cli.conftest import Cli, Result


def _digest(path: Path) -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(path.parent.glob(path.name + "*")))).hexdigest()


def _one_line_error(result: Result, code: int = 2) -> None:
    assert result.code == code, (result.code, result.out, result.err)
    assert "Traceback" not in result.err
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1 or (len(lines) == 2 and lines[0].startswith("usage:")), result.err
    assert lines[-1].startswith("error: ")
    assert "pydantic" not in result.err  # the reason itself, not a validation library's footer


@pytest.fixture
def seeded(cli: Cli) -> tuple[Cli, str]:
    rid = cli("retain", "--space", "p", "--kind", "note", "A fact that exists.").out.strip()
    return cli, rid


@pytest.mark.parametrize(
    ("args", "stdin", "code"),
    [
        (["retain", "--space", "p", "--kind", "note", ""], None, 2),
        (["retain", "--space", "p", "--kind", "note", "   "], None, 2),
        (["retain", "--space", "p", "--kind", "note", "x" * 4001], None, 2),
        (["retain", "--space", "p", "--kind", "Not A Kind", "text"], None, 2),
        (["retain", "--space", "p", "--kind", "note", "--occurred-at", "yesterday-ish", "text"], None, 2),
        (["retain", "--space", "p", "--kind", "note", "--occurred-at", "2026-13-45", "text"], None, 2),
        (["retain", "--space", "p", "--kind", "note", "--tag", "bad tag!", "text"], None, 2),
        (["retain", "--space", "", "--kind", "note", "text"], None, 2),
        (["retain", "--space", "p", "--kind", "note", "-"], b"has a NUL \x00 byte", 2),
        (["retain", "--space", "p", "--kind", "note", "-"], b"bad utf-8 \xff\xfe", 2),
        (["recall", "--space", "p", "--as-of", "not-a-date", "fact"], None, 2),
        (["recall", "--space", "p", "--k", "0", "fact"], None, 2),
        (["recall", "--space", "p", "--k", "many", "fact"], None, 2),
        (["recall", "--space", "p", ""], None, 2),
        (["recall", "--space", "p", "--strategy", "nonsense", "fact"], None, 2),
        (["supersede", "--space", "p", "01UNKNOWNID", "new text"], None, 3),
        (["retract", "--space", "p", "--why", "x", "zzzzzzzz"], None, 3),
        (["forget", "--space", "p", "nope"], None, 3),
        (["history", "--space", "p", "nope"], None, 3),
        (["forget", "--space", "nobody", "nope"], None, 3),
        (["retain", "--space", "p", "text-without-kind"], None, 2),
        (["no-such-command"], None, 2),
    ],
)
def test_bad_input_is_refused_cleanly(seeded: tuple[Cli, str], args: list[str], stdin: bytes | None, code: int) -> None:
    cli, _ = seeded
    before = _digest(cli.db)
    _one_line_error(cli(*args, stdin=stdin), code)
    assert _digest(cli.db) == before


@pytest.mark.parametrize(
    ("space", "reason"),
    [("", "error: --space: is empty"), ("x" * 201, "error: --space: 201 characters, over the limit")],
)
def test_a_bad_space_name_says_what_is_wrong_with_it(seeded: tuple[Cli, str], space: str, reason: str) -> None:
    cli, _ = seeded
    result = cli("recall", "--space", space, "fact")
    _one_line_error(result)
    assert result.err.startswith(reason), result.err


def test_invalid_transitions_are_refused(seeded: tuple[Cli, str]) -> None:
    cli, rid = seeded
    assert cli("retract", "--space", "p", "--why", "wrong", rid).code == 0
    before = _digest(cli.db)
    _one_line_error(cli("supersede", "--space", "p", rid, "new"), 2)
    _one_line_error(cli("retract", "--space", "p", "--why", "again", rid), 2)
    assert _digest(cli.db) == before


def test_reading_commands_do_not_create_a_database(cli: Cli, tmp_path: Path) -> None:
    _one_line_error(cli("recall", "--space", "p", "anything"), 3)
    _one_line_error(cli("history", "--space", "p", "x"), 3)
    assert not cli.db.exists()


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe\x00garbage",
        b'{"type":"header","format":"forethought-export","version":1}\n{"type":"record"}\n',
        b"[1, 2, 3]\n",
    ],
)
def test_bad_import_files_are_refused(seeded: tuple[Cli, str], tmp_path: Path, content: bytes) -> None:
    cli, _ = seeded
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(content)
    before = _digest(cli.db)
    _one_line_error(cli("import", "--space", "q", str(bad)), 2)
    assert _digest(cli.db) == before


def test_missing_import_file(seeded: tuple[Cli, str], tmp_path: Path) -> None:
    cli, _ = seeded
    _one_line_error(cli("import", "--space", "q", str(tmp_path / "missing.jsonl")), 2)


def test_json_errors_are_machine_readable(seeded: tuple[Cli, str]) -> None:
    cli, _ = seeded
    result = cli("forget", "--json", "--space", "p", "nope")
    assert result.code == 3
    assert result.json() == {"error": {"code": "not_found", "message": "no record 'nope' in this space"}}


def test_a_database_made_with_another_embedder_is_refused(seeded: tuple[Cli, str]) -> None:
    cli, _ = seeded
    env = {**cli.env, "FORETHOUGHT_EMBEDDER": "minilm"}
    result = cli("recall", "--space", "p", "fact", env=env)
    _one_line_error(result, 4)
    assert "hashing" in result.err


@pytest.mark.parametrize(
    "when", ["9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00+05:00", "9999-12-31T23:00:00-05:00", "0001-01-01"]
)
def test_a_time_at_the_ends_of_the_calendar_is_a_one_line_error(seeded: tuple[Cli, str], when: str) -> None:
    cli, _ = seeded
    result = cli("retain", "--space", "p", "--kind", "note", "--occurred-at", when, "A dated fact.")
    _one_line_error(result, 2)
    assert "is out of range (accepted: 0001-01-02 to 9999-12-30, UTC)" in result.err
    _one_line_error(cli("recall", "--space", "p", "--as-of", when, "fact"), 2)


DEEP = [
    '{"messages": [{"role": "user", "content": ' + "[" * 100_000 + "]" * 100_000 + "}]}",
    "[" * 100_000 + "]" * 100_000,
    '{"type": "user", "message": {"content": "hi"}}\n{"x": ' + '{"a":' * 5_000 + "1" + "}" * 5_000 + "}",
]


@pytest.mark.parametrize("transcript", DEEP, ids=["content", "whole", "jsonl"])
def test_a_deeply_nested_transcript_is_a_one_line_error(cli: Cli, tmp_path: Path, transcript: str) -> None:
    path = tmp_path / "deep.json"
    path.write_text(transcript)
    for args in (["extract"], ["submit", "--space", "p"]):
        result = cli(*args, "--file", str(path))
        _one_line_error(result, 2)
        assert "JSON nests deeper than 64 levels" in result.err


def test_an_import_line_of_megabytes_is_refused_with_the_limit(seeded: tuple[Cli, str], tmp_path: Path) -> None:
    cli, _ = seeded
    big = tmp_path / "big.jsonl"
    with big.open("wb") as out:
        out.write(b'{"type":"header","format":"forethought-export","version":1}\n{"type":"record","statement":"')
        out.write(b"a" * (5 << 20))
        out.write(b'"}\n')
    result = cli("import", "--space", "q", str(big))
    _one_line_error(result, 2)
    assert "big.jsonl:2: line over 1,048,576 bytes" in result.err


@pytest.mark.parametrize("port", ["\u00b2", "\u0661\u0662\u0663", "9" * 30, "0", "65536"])
def test_a_port_that_is_no_port_is_a_usage_error(cli: Cli, port: str) -> None:
    result = cli("serve", "--port", port)
    assert result.code == 2 and "not a TCP port" in result.err and "Traceback" not in result.err
