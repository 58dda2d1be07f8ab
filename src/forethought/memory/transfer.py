"""Export and import of a space as JSON Lines: lossless, validated before anything is written.

File layout: a header line, then one line per record (every status and version), then one line
per audit event:

    {"type": "header", "format": "forethought-export", "version": 1, ...}
    {"type": "record", "id": ..., "kind": ..., "statement": ..., ...}
    {"type": "event", "id": ..., "action": ..., ...}

Ids are kept when they are free in the target database. When an id is taken (the file is
imported into a second space of the same database), it is replaced by one derived from the target
space and the original id, so importing the same file again finds its records and skips them.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from forethought.domain import Action, AuditEvent, Record, Space, handle_for, new_id
from forethought.domain.limits import check_attributes, check_kind, check_patterns, check_statement, check_tags
from forethought.domain.times import check_time_range, format_time, utcnow
from forethought.embed.base import Embedder
from forethought.errors import InvalidInput
from forethought.memory.writing import index_records
from forethought.store.base import ChangeSet, RecordFilter, Store
from forethought.text.jsontext import load_json

__all__ = ["EXPORT_FORMAT", "MAX_LINE_BYTES", "Export", "export_space", "import_space", "read_export"]

EXPORT_FORMAT = "forethought-export"
EXPORT_VERSION = 1
MAX_LINE_BYTES = 1 << 20
_BATCH = 256
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def export_space(store: Store, space: Space, path: Path) -> int:
    everything = RecordFilter(statuses=())
    records: list[Record] = []
    after: str | None = None
    while True:
        page = store.records.list(space.id, everything, limit=1000, after_id=after)
        if not page:
            break
        records.extend(page)
        after = page[-1].id
    events: list[AuditEvent] = []
    before: int | None = None
    while True:
        batch = store.audit.events(space.id, limit=1000, before_seq=before)
        events.extend(batch)
        if len(batch) < 1000:
            break
        before = batch[-1].seq
    header = {
        "type": "header",
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": format_time(utcnow()),
        "space": space.key.model_dump(),
        "records": len(records),
        "events": len(events),
    }
    tmp = path.with_name(path.name + ".part")
    # An export holds a subject's whole memory: owner-only, whatever the umask.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(_line(header))
        for record in records:
            out.write(_line({"type": "record", **record.model_dump(mode="json", exclude={"space_id", "handle"})}))
        for event in reversed(events):
            out.write(_line({"type": "event", **event.model_dump(mode="json", exclude={"space_id", "seq"})}))
    tmp.replace(path)  # a reader never sees half a file
    return len(records)


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def _read_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot read ({exc.strerror})") from None
    with handle:
        number = 0
        # Each line is read with a bound: a line over the limit is refused after reading one byte
        # more than the limit, never read whole (a file may be one line of a gigabyte).
        while raw := handle.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise InvalidInput(f"{path}:{number}: line over {MAX_LINE_BYTES:,} bytes")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidInput(f"{path}:{number}: not valid UTF-8") from None
            if not text.strip():
                continue
            try:
                obj = load_json(text, what=f"{path}:{number}")
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{path}:{number}: not JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise InvalidInput(f"{path}:{number}: expected a JSON object")
            yield number, obj


@dataclass(frozen=True)
class Export:
    """A parsed, validated export, not yet bound to a space."""

    records: list[Record]
    events: list[AuditEvent]


# Records are validated before the target space is resolved (so a bad file creates nothing);
# they carry this placeholder until import binds them to the space.
_UNBOUND = "unbound"


def read_export(path: Path) -> Export:
    """Parse and validate a whole export file; raises InvalidInput naming the first bad line."""
    records: list[Record] = []
    events: list[AuditEvent] = []
    saw_header = False
    for number, obj in _read_lines(path):
        kind = obj.pop("type", None)
        where = f"{path}:{number}"
        if not saw_header:
            if kind != "header" or obj.get("format") != EXPORT_FORMAT:
                raise InvalidInput(f"{where}: not a Forethought export (no header line)")
            if obj.get("version") != EXPORT_VERSION:
                raise InvalidInput(f"{where}: export version {obj.get('version')!r} is not supported")
            saw_header = True
            continue
        try:
            if kind == "record":
                obj.pop("space_id", None)
                obj.pop("handle", None)
                record = Record.model_validate({**obj, "space_id": _UNBOUND, "handle": handle_for(str(obj.get("id")))})
                check_statement(record.statement)
                check_kind(record.kind)
                check_tags(record.tags)
                check_attributes(record.attributes)
                if record.check is not None:
                    check_patterns(record.check)  # an imported pattern is vetted like one set over the API
                for field in ("occurred_at", "recorded_at", "valid_to"):
                    when = getattr(record, field)
                    if when is not None:
                        check_time_range(when, field=field)
                records.append(record)
            elif kind == "event":
                event = AuditEvent.model_validate({**obj, "space_id": _UNBOUND})
                check_time_range(event.at, field="at")
                events.append(event)
            else:
                raise InvalidInput(f"{where}: unknown line type {kind!r}")
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first.get("loc", ()))
            raise InvalidInput(f"{where}: {field}: {first.get('msg')}") from None
        except InvalidInput as exc:
            raise InvalidInput(f"{where}: {exc}") from None
    if not saw_header:
        raise InvalidInput(f"{path}: empty file, not a Forethought export")
    ids = [r.id for r in records]
    if len(set(ids)) != len(ids):
        raise InvalidInput(f"{path}: the same record id appears twice")
    return Export(records, events)


def _derived_id(space_id: str, original: str) -> str:
    """A stable replacement id: the original's time part, then 80 bits of sha256(space, id)."""
    digest = int.from_bytes(hashlib.sha256(f"{space_id}:{original}".encode()).digest()[:10], "big")
    tail = "".join(_CROCKFORD[(digest >> (5 * i)) & 31] for i in reversed(range(16)))
    return original[:10] + tail


def import_space(
    store: Store,
    embedder: Embedder | None,
    space: Space,
    export: Export,
    *,
    actor: str,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    records = [r.model_copy(update={"space_id": space.id}) for r in export.records]
    events = [e.model_copy(update={"space_id": space.id}) for e in export.events]
    taken = store.records.ids_in_use([r.id for r in records])
    present = store.records.ids_in_use(list(taken), space_id=space.id)
    mapping: dict[str, str] = {}
    for record in records:
        if record.id in taken and record.id not in present:
            mapping[record.id] = _derived_id(space.id, record.id)
    remapped_taken = store.records.ids_in_use(list(mapping.values()), space_id=space.id)
    present |= {original for original, new in mapping.items() if new in remapped_taken}

    def m(value: str | None) -> str | None:
        return None if value is None else mapping.get(value, value)

    known = {m(r.id) for r in records}
    todo: list[Record] = []
    for record in records:
        if record.id in present:
            continue
        new_id_ = m(record.id) or record.id
        todo.append(
            record.model_copy(
                update={
                    "id": new_id_,
                    "handle": handle_for(new_id_),
                    "lineage_id": m(record.lineage_id),
                    "previous_id": m(record.previous_id) if m(record.previous_id) in known else None,
                    "supersedes": tuple(i for i in (m(x) for x in record.supersedes) if i in known),
                    "superseded_by": m(record.superseded_by) if m(record.superseded_by) in known else None,
                }
            )
        )
    wanted = {r.id for r in todo}
    # An event keeps its id unless its record was given a new one (or it names no record, and
    # so may already be in this database from an earlier import).
    todo_events = [
        e.model_copy(
            update={
                "id": _derived_id(space.id, e.id) if (e.record_id in mapping or e.record_id is None) else e.id,
                "record_id": m(e.record_id),
                "lineage_id": m(e.lineage_id),
            }
        )
        for e in events
        if m(e.record_id) in wanted or (e.record_id is None and e.lineage_id is None and wanted)
    ]
    done = 0
    total = len(todo)
    if progress is not None:
        progress(0, total)
    for start in range(0, total, _BATCH):
        batch = todo[start : start + _BATCH]
        batch_ids = {r.id for r in batch}
        batch_events = [e for e in todo_events if e.record_id in batch_ids]
        if start + _BATCH >= total:
            batch_events += [e for e in todo_events if e.record_id is None]
            batch_events.append(
                AuditEvent(
                    id=new_id(),
                    space_id=space.id,
                    action=Action.IMPORTED,
                    actor=actor,
                    at=utcnow(),
                    details={"records": total},
                )
            )
        store.records.apply(ChangeSet(space.id, inserts=index_records(batch, embedder), events=batch_events))
        done += len(batch)
        if progress is not None:
            progress(done, total)
    return total
