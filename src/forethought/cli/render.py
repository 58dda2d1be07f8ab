"""How the CLI prints things for people, and the JSON forms of records and hits the commands share."""

from __future__ import annotations

from typing import Any

from forethought.domain import Record
from forethought.domain.times import format_time
from forethought.facade import History
from forethought.recall import RecallHit, RecallResult

__all__ = ["hit_json", "record_json", "show_history", "show_recall", "show_record"]


def record_json(record: Record) -> dict[str, Any]:
    return record.model_dump(mode="json")


def hit_json(hit: RecallHit) -> dict[str, Any]:
    return {
        "id": hit.record.id,
        "handle": hit.record.handle,
        "kind": hit.record.kind,
        "statement": hit.record.statement,
        "status": hit.record.status.value,
        "score": hit.score,
        "why": {name: s.model_dump() for name, s in hit.why.items()},
    }


def _short_time(record: Record) -> str:
    return format_time(record.occurred_at)[:10]


def show_recall(result: RecallResult) -> str:
    if not result.hits:
        return "no matching memories"
    lines = []
    for hit in result.hits:
        r = hit.record
        lines.append(f"{r.handle}  {r.kind:<14} {hit.score:.4f}  {r.statement}")
        status = "" if r.status.value == "active" else f" [{r.status.value}]"
        lines.append(f"          {_short_time(r)}{status}  why: {hit.explain()}")
    lines.append(
        f"-- {len(result.hits)} of {result.candidates} candidates, ~{result.tokens} tokens"
        + (f", {result.over_budget} over the token budget" if result.over_budget else "")
    )
    return "\n".join(lines)


def show_record(record: Record) -> str:
    tags = f"  tags: {', '.join(record.tags)}" if record.tags else ""
    return (
        f"{record.handle}  {record.kind}  {record.status.value}  v{record.version}  "
        f"occurred {_short_time(record)}{tags}\n  {record.statement}\n  id: {record.id}"
    )


def show_history(history: History) -> str:
    lines = [f"history of {history.record.handle} ({len(history.chain)} linked records)"]
    for r in history.chain:
        mark = "*" if r.id == history.record.id else " "
        until = f" until {format_time(r.valid_to)[:10]}" if r.valid_to else ""
        links = []
        if r.previous_id:
            links.append("edit of an earlier version")
        if r.supersedes:
            links.append("supersedes " + ", ".join(i[:8] for i in r.supersedes))
        link = f"  ({'; '.join(links)})" if links else ""
        lines.append(f"{mark} {r.handle} v{r.version} {r.status.value:<10} from {_short_time(r)}{until}{link}")
        lines.append(f"    {r.statement}")
    if history.events:
        lines.append("audit:")
        for e in history.events:
            change = f"{e.from_status or '-'} -> {e.to_status}" if e.to_status else ""
            reason = f"  why: {e.reason}" if e.reason else ""
            lines.append(f"  {format_time(e.at)[:19]}  {e.action.value:<15} {change:<24} by {e.actor}{reason}")
    return "\n".join(lines)
