"""The rulebook: a project's current rules, grouped by kind and area, as of now or any date.

Only records in force appear: candidates wait in the inbox, and superseded or retracted records
are history. `as_of` gives the dated snapshot (what was in force then, by each record's validity
window); `changes` lists what came in and what was retired between two dates, each retirement
with the record that replaced it, so a reviewer sees what a supersession changed.

Formats: `md` (handles, kinds, areas and dates, for people and for citing), and `agents`, `claude`
and `cursor` — the content of an `AGENTS.md`, `CLAUDE.md` or `.cursorrules` file generated from
the reviewed rules, so an agent without Forethought still gets what the team decided.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from forethought.domain import Record, Status
from forethought.domain.times import format_time, utcnow
from forethought.facade import Forethought, Scope

__all__ = ["FORMATS", "MAX_RULES", "Change", "Rulebook", "build_rulebook", "changes", "render"]

MAX_RULES = 1000
_PAGE = 200
FORMATS = ("md", "agents", "claude", "cursor")
Format = Literal["md", "agents", "claude", "cursor"]
_HISTORY = (Status.ACTIVE, Status.SUPERSEDED, Status.RETRACTED)


@dataclass(frozen=True)
class Rulebook:
    project: str
    app_kinds: tuple[str, ...]
    rules: list[Record]
    as_of: datetime | None
    truncated: bool

    def grouped(self) -> dict[str, dict[str, list[Record]]]:
        """Kind (in the app's order) → area → rules, oldest first."""
        order = {name: i for i, name in enumerate(self.app_kinds)}
        out: dict[str, dict[str, list[Record]]] = defaultdict(lambda: defaultdict(list))
        for record in sorted(self.rules, key=lambda r: (order.get(r.kind, len(order)), r.kind, r.occurred_at, r.id)):
            out[record.kind][area_of(record)].append(record)
        return out


@dataclass(frozen=True)
class Change:
    """One rule that came into force or left it between two dates."""

    what: Literal["added", "superseded", "retracted"]
    record: Record
    at: datetime
    replaced_by: Record | None = None


def area_of(record: Record) -> str:
    area = record.attributes.get("area")
    return area if isinstance(area, str) and area else "general"


def build_rulebook(memory: Forethought, scope: Scope, *, as_of: datetime | None = None) -> Rulebook:
    """The rules in force now, or at `as_of` (at most `MAX_RULES`)."""
    statuses = (Status.ACTIVE,) if as_of is None else _HISTORY
    records = _all(memory, scope, statuses, as_of)
    return Rulebook(scope.subject, tuple(scope.app.kinds), records[:MAX_RULES], as_of, len(records) > MAX_RULES)


def changes(memory: Forethought, scope: Scope, since: datetime, until: datetime | None = None) -> list[Change]:
    """What came into force (by `occurred_at`) and what was retired (by `valid_to`) in [since, until)."""
    end = until or utcnow()
    found: list[Change] = []
    records = _all(memory, scope, _HISTORY, None)
    by_id = {r.id: r for r in records}
    for record in records:
        if since <= record.occurred_at < end:
            found.append(Change("added", record, record.occurred_at))
        if record.valid_to is not None and since <= record.valid_to < end and record.status is not Status.ACTIVE:
            what: Literal["superseded", "retracted"] = (
                "superseded" if record.status is Status.SUPERSEDED else "retracted"
            )
            found.append(Change(what, record, record.valid_to, by_id.get(record.superseded_by or "")))
    return sorted(found, key=lambda c: (c.at, c.what != "superseded", c.record.id))


def _all(memory: Forethought, scope: Scope, statuses: tuple[Status, ...], as_of: datetime | None) -> list[Record]:
    records: list[Record] = []
    after: str | None = None
    while len(records) <= MAX_RULES:
        page = memory.list_records(scope, statuses=statuses, as_of=as_of, limit=_PAGE, after_id=after)
        records.extend(page)
        if len(page) < _PAGE:
            break
        after = page[-1].id
    return records  # with `as_of`, the store keeps those valid then (occurred_at <= as_of < valid_to)


def render(book: Rulebook, fmt: Format = "md") -> str:
    """The rulebook as Markdown for people, or as a rule file's content for agents."""
    if fmt == "md":
        return _markdown(book)
    return _rule_file(book, fmt)


def _markdown(book: Rulebook) -> str:
    when = f" as of {format_time(book.as_of)[:10]}" if book.as_of else ""
    title = f"# Rulebook: {book.project}{when}"
    if not book.rules:
        return f"{title}\n\nNo current rules: nothing has been approved for this project yet."
    lines = [title, "", f"{len(book.rules)} rule(s) in force{' (truncated)' if book.truncated else ''}."]
    for kind, areas in book.grouped().items():
        lines += ["", f"## {_label(kind)} ({sum(len(v) for v in areas.values())})"]
        for area in sorted(areas, key=lambda a: (a == "general", a)):
            lines += ["", f"### {area}"]
            for record in areas[area]:
                since = format_time(record.occurred_at)[:10]
                lines.append(f"- `{record.handle}` {_one_line(record.statement)} _(since {since})_")
    return "\n".join(lines)


def _rule_file(book: Rulebook, fmt: Format) -> str:
    note = (
        f"Generated by Forethought from {len(book.rules)} reviewed rule(s) of project {book.project} "
        f"on {format_time(book.as_of or utcnow())[:10]}. Change the rules there, not here."
    )
    if fmt == "cursor":  # .cursorrules: plain lines, no Markdown structure required
        body = [f"# {note}", ""]
        body += [f"- {_one_line(r.statement)}" for r in _in_order(book)]
        return "\n".join(body) + "\n"
    heading = "AGENTS.md" if fmt == "agents" else "CLAUDE.md"
    lines = [f"# {heading}", "", f"<!-- {note} -->"]
    if not book.rules:
        return "\n".join([*lines, "", "No project rules have been approved yet."]) + "\n"
    by_area: dict[str, list[Record]] = defaultdict(list)
    for areas in book.grouped().values():
        for area, records in areas.items():
            by_area[area].extend(records)
    for area in sorted(by_area, key=lambda a: (a == "general", a)):
        lines += ["", f"## {area.capitalize()}", ""]
        lines += [f"- {_one_line(r.statement)}" for r in by_area[area]]
    return "\n".join(lines) + "\n"


def _in_order(book: Rulebook) -> list[Record]:
    return [r for areas in book.grouped().values() for records in areas.values() for r in records]


def _label(kind: str) -> str:
    return kind.replace("_", " ").capitalize()


def _one_line(text: str) -> str:
    return " ".join(text.split())
