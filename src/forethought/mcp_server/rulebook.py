"""The rulebook: a project's current records as Markdown, grouped by kind (in the app's order) and
then by area, each line with its handle so an agent can cite it.

Only current (active) records appear: candidates wait in the inbox, and superseded or retracted
records are history, not rules. Built on `list_records`, a page at a time, up to `MAX_RULES`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from forethought.domain import Record
from forethought.domain.times import format_time
from forethought.facade import Forethought, Scope
from forethought.mcp_server.results import RuleOut

__all__ = ["MAX_RULES", "Rulebook", "build_rulebook"]

MAX_RULES = 1000
_PAGE = 200


@dataclass(frozen=True)
class Rulebook:
    markdown: str
    rules: list[RuleOut]
    truncated: bool


def build_rulebook(memory: Forethought, scope: Scope) -> Rulebook:
    records: list[Record] = []
    after: str | None = None
    while len(records) <= MAX_RULES:
        page = memory.list_records(scope, limit=_PAGE, after_id=after)
        records.extend(page)
        if len(page) < _PAGE:
            break
        after = page[-1].id
    truncated = len(records) > MAX_RULES
    records = records[:MAX_RULES]
    app = scope.app
    kind_order = {name: i for i, name in enumerate(app.kinds)}
    grouped: dict[str, dict[str, list[Record]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        grouped[record.kind][_area(record)].append(record)

    title = f"# Rulebook: {scope.subject} ({app.name})"
    if not records:
        return Rulebook(f"{title}\n\nNo current rules: nothing has been approved for this project yet.", [], False)
    lines = [title, "", f"{len(records)} current record(s){' (truncated)' if truncated else ''}."]
    rules: list[RuleOut] = []
    for kind in sorted(grouped, key=lambda k: (kind_order.get(k, len(kind_order)), k)):
        areas = grouped[kind]
        lines += ["", f"## {kind.replace('_', ' ').capitalize()} ({sum(len(v) for v in areas.values())})"]
        for area in sorted(areas, key=lambda a: (a == "general", a)):
            lines += ["", f"### {area}"]
            for record in sorted(areas[area], key=lambda r: (r.occurred_at, r.id)):
                since = format_time(record.occurred_at)[:10]
                lines.append(f"- `{record.handle}` {_one_line(record.statement)} _(since {since})_")
                rules.append(
                    RuleOut(
                        handle=record.handle,
                        id=record.id,
                        kind=record.kind,
                        statement=record.statement,
                        area=area,
                        since=since,
                    )
                )
    return Rulebook("\n".join(lines), rules, truncated)


def _area(record: Record) -> str:
    area = record.attributes.get("area")
    return area if isinstance(area, str) and area else "general"


def _one_line(text: str) -> str:
    return " ".join(text.split())
