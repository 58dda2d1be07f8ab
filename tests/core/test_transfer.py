"""Export / import: a lossless JSON Lines round trip, validated before anything is written."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import pytest

from forethought import Forethought, InvalidInput, Status
from forethought.embed.hashing import HashingEmbedder
from forethought.memory.transfer import MAX_LINE_BYTES


def _populate(memory: Forethought) -> None:
    a = memory.retain(
        memory.scope("generic", "src"),
        "Ana applied to Contoso.",
        kind="application",
        tags=["apps"],
        occurred_at="2026-01-01",
        external_id="e1",
        attributes={"company": "Contoso"},
        context="neighbouring turn text",
    ).record
    memory.supersede(memory.scope("generic", "src"), a.id, "Contoso rejected Ana.", occurred_at="2026-02-01")
    b = memory.retain(memory.scope("generic", "src"), "Ana knows Pyhton.", kind="skill").record
    memory.edit(memory.scope("generic", "src"), b.id, "Ana knows Python.")
    c = memory.retain(memory.scope("generic", "src"), "Ana wants to be a chef.", kind="target_role").record
    memory.retract(memory.scope("generic", "src"), c.id, why="joke")
    memory.retain(memory.scope("generic", "src"), "Candidate fact.", status=Status.CANDIDATE)


def _comparable(memory: Forethought, space: str) -> list[dict[str, object]]:
    records = memory.list_records(memory.scope("generic", space), statuses=list(Status), limit=1000)
    return [r.model_dump(mode="json", exclude={"space_id"}) for r in records]


def test_round_trip_into_another_database_is_lossless(memory: Forethought, tmp_path: Path) -> None:
    _populate(memory)
    out = tmp_path / "export.jsonl"
    assert memory.export_jsonl(memory.scope("generic", "src"), out) == 6
    with Forethought.open(tmp_path / "other.db", embedder=HashingEmbedder()) as other:
        seen: list[tuple[int, int]] = []
        assert other.import_jsonl(other.scope("generic", "dst"), out, progress=lambda d, t: seen.append((d, t))) == 6
        assert seen[-1] == (6, 6)
        assert _comparable(other, "dst") == _comparable(memory, "src")
        again = tmp_path / "again.jsonl"
        other.export_jsonl(other.scope("generic", "dst"), again)
        strip = lambda p: [json.loads(x) for x in p.read_text().splitlines()[1:]]  # noqa: E731
        original = [r for r in strip(out) if r["type"] == "record"]
        assert [r for r in strip(again) if r["type"] == "record"] == original
        assert other.import_jsonl(other.scope("generic", "dst"), out) == 0  # importing twice adds nothing
        hits = other.recall(other.scope("generic", "dst"), "Contoso rejected")
        assert hits.hits and hits.hits[0].record.statement == "Contoso rejected Ana."


def test_import_into_a_second_space_of_the_same_database_remaps_ids(memory: Forethought, tmp_path: Path) -> None:
    _populate(memory)
    out = tmp_path / "export.jsonl"
    memory.export_jsonl(memory.scope("generic", "src"), out)
    assert memory.import_jsonl(memory.scope("generic", "copy"), out) == 6
    assert memory.import_jsonl(memory.scope("generic", "copy"), out) == 0
    src_ids = {r["id"] for r in _comparable(memory, "src")}
    copy = _comparable(memory, "copy")
    assert not src_ids & {r["id"] for r in copy}
    superseded = [r for r in copy if r["status"] == "superseded" and r["superseded_by"]]
    assert superseded and all(r["superseded_by"] in {c["id"] for c in copy} for r in superseded)
    history = memory.history(memory.scope("generic", "copy"), superseded[0]["id"])  # type: ignore[arg-type]
    assert len(history.chain) == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b'{"type": "record"}\n', "not a Forethought export"),
        (b'{"type":"header","format":"forethought-export","version":99}\n', "version"),
        (b'{"type":"header","format":"forethought-export","version":1}\nnot json\n', "not JSON"),
        (b'{"type":"header","format":"forethought-export","version":1}\n\xff\xfe\n', "UTF-8"),
        (b'{"type":"header","format":"forethought-export","version":1}\n{"type":"record","id":"x"}\n', "line 2"),
    ],
)
def test_bad_import_files_change_nothing(memory: Forethought, tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    good_then_bad = content
    bad.write_bytes(good_then_bad)
    with pytest.raises(InvalidInput) as err:
        memory.import_jsonl(memory.scope("generic", "dst"), bad)
    assert message in str(err.value) or message.replace("line ", ":") in str(err.value)
    assert memory.list_records(memory.scope("generic", "dst"), statuses=list(Status)) == []


def test_a_bad_line_after_good_ones_writes_nothing(memory: Forethought, tmp_path: Path) -> None:
    _populate(memory)
    out = tmp_path / "export.jsonl"
    memory.export_jsonl(memory.scope("generic", "src"), out)
    lines = out.read_text().splitlines()
    lines.append('{"type":"record","id":"X","kind":"Bad Kind"}')
    out.write_text("\n".join(lines) + "\n")
    with pytest.raises(InvalidInput):
        memory.import_jsonl(memory.scope("generic", "dst"), out)
    assert memory.list_records(memory.scope("generic", "dst"), statuses=list(Status)) == []


class _Counting:
    """A file handle that counts the bytes it hands out, however they are asked for."""

    def __init__(self, inner: BinaryIO) -> None:
        self.inner = inner
        self.served = 0

    def __enter__(self) -> _Counting:
        return self

    def __exit__(self, *exc: object) -> None:
        self.inner.close()

    def __iter__(self) -> Iterator[bytes]:
        for line in self.inner:
            self.served += len(line)
            yield line

    def readline(self, size: int = -1) -> bytes:
        line = self.inner.readline(size)
        self.served += len(line)
        return line

    def read(self, size: int = -1) -> bytes:
        data = self.inner.read(size)
        self.served += len(data)
        return data


@pytest.mark.parametrize("line_bytes", [MAX_LINE_BYTES + 1, 3 * MAX_LINE_BYTES, 6 * MAX_LINE_BYTES + 17])
def test_a_line_over_the_limit_is_refused_without_being_read_whole(
    memory: Forethought, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line_bytes: int
) -> None:
    big = tmp_path / "one-line.jsonl"
    with big.open("wb") as out:
        out.write(HEADER + b'{"type":"record","statement":"')
        out.write(b"a" * line_bytes)
        out.write(b'"}\n')
    handles: list[_Counting] = []
    real_open = Path.open

    def counting_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        handle = _Counting(real_open(self, *args, **kwargs))
        handles.append(handle)
        return handle

    monkeypatch.setattr(Path, "open", counting_open)
    with pytest.raises(InvalidInput, match=r"one-line\.jsonl:2: line over 1,048,576 bytes"):
        memory.import_jsonl(memory.scope("generic", "dst"), big)
    (handle,) = handles
    # The header line and one byte more than the limit of the long one: never the rest of it.
    assert handle.served == len(HEADER) + MAX_LINE_BYTES + 1


HEADER = b'{"type":"header","format":"forethought-export","version":1}\n'


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"record","id":"x","extra":' + "[" * 100_000 + "]" * 100_000 + "}",
        "[" * 100_000 + "]" * 100_000,
        '{"type":"event","details":' + '{"a":' * 5_000 + "1" + "}" * 5_000 + "}",
    ],
    ids=["field", "whole-line", "objects"],
)
def test_deeply_nested_json_in_an_import_file_is_refused(memory: Forethought, tmp_path: Path, line: str) -> None:
    bad = tmp_path / "deep.jsonl"
    bad.write_bytes(HEADER + line.encode() + b"\n")
    with pytest.raises(InvalidInput, match=r"deep\.jsonl:2: JSON nests deeper than 64 levels"):
        memory.import_jsonl(memory.scope("generic", "dst"), bad)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("occurred_at", "9999-12-31T23:59:59.999999Z"),
        ("occurred_at", "9999-12-31T23:00:00-05:00"),
        ("recorded_at", "0001-01-01T00:00:00+05:00"),
        ("valid_to", "0001-01-01T00:00:00Z"),
    ],
)
def test_an_imported_time_outside_the_accepted_range_is_refused(
    memory: Forethought, tmp_path: Path, field: str, value: str
) -> None:
    _populate(memory)
    out = tmp_path / "export.jsonl"
    memory.export_jsonl(memory.scope("generic", "src"), out)
    lines = out.read_text().splitlines()
    record = json.loads(lines[1])
    record[field] = value
    lines[1] = json.dumps(record)
    out.write_text("\n".join(lines) + "\n")
    with pytest.raises(InvalidInput, match=rf"export\.jsonl:2: {field}: the time given is out of range"):
        memory.import_jsonl(memory.scope("generic", "dst"), out)
    assert memory.list_records(memory.scope("generic", "dst"), statuses=list(Status)) == []


def test_an_export_file_is_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        with Forethought.open(tmp_path / "m.db", embedder="hashing") as memory:
            scope = memory.scope("generic", "ada")
            memory.retain(scope, "Ada prefers morning meetings.")
            memory.export_jsonl(scope, tmp_path / "ada.jsonl")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "ada.jsonl").stat().st_mode) == 0o600
