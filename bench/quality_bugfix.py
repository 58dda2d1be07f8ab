"""The bug-fix set: is the deciding rule, hidden among decoy chats, in a brief of 5 for a
symptom-only report?

Per project, one space of the project app. Every chat (`labels.jsonl`) and every commit of
`commits/<project>.txt` goes in, in time order. Commits go through the product's git import: the
log is written into a real repository (`git fast-import`, the same messages, authors and dates),
read back by `apps/project/sources/git.py` (noise skipped, trailers dropped, conventional prefixes
read) and each commit filed with `file_documents` at its place in time. With
`FORETHOUGHT_BENCH_COMMITS=sessions` each message is instead a one-turn session of its author (the
path used before the git import existed), to compare.
After each session every pending candidate is approved (a conflicting one with
`conflict="supersede"`: the later word wins; one flagged as instruction-like cannot be approved and
is counted). Then `brief(scope, report, file_paths=..., limit=5)` per task.

Strict hit: a briefed record whose statement or evidence overlaps the rule's quote (the amended
quote for an amended task) as normalised substrings either way, or a briefed past-session excerpt
that does (the brief's items are its records and its excerpts, at most 5 together). Lenient hit: strict, or the
record's text covers the rule's statement (`covers`: at least 60% of its content words). Stale: an
amended task's brief holds a record overlapping the old quote, or covering the stale statement
without overlapping the amended quote. A missed task is `not stored` when no active record of the
space overlaps the quote, else `stored, not briefed`.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.quality_common import (
    LENIENT_SHARE,
    Row,
    all_records,
    covers,
    overlaps,
    quotes_overlap,
    ratio,
    read_jsonl,
    read_turns,
    texts_of,
)
from forethought import Forethought, Scope
from forethought.apps.project.sources.git import read_git_log
from forethought.domain import Record, Role, Turn
from forethought.domain.candidates import Flag
from forethought.domain.documents import SourceDocument
from forethought.domain.records import RelationLabel
from forethought.domain.times import parse_time
from forethought.errors import InvalidInput

EXCERPTS = int(os.environ.get("FORETHOUGHT_BENCH_EXCERPTS", "3"))  # 0: records only, to compare
_COMMIT = re.compile(r"^commit ([0-9a-f]{40})\s*$", re.M)
_HEADER = re.compile(r"^(\w+):\s*(.*)$")


COMMITS = os.environ.get("FORETHOUGHT_BENCH_COMMITS", "git")


@dataclass(frozen=True)
class Chat:
    """One session to import: its id, its turns and when it began (a commit: its document)."""

    id: str
    turns: list[Turn]
    at: datetime
    document: SourceDocument | None = None


def git_documents(chats: list[Chat], tmp: Path) -> list[Chat]:
    """The commit chats written to a real repository and read back as the product reads a repo."""
    repo = tmp / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    stream = bytearray()
    for chat in sorted(chats, key=lambda c: c.at):
        who = (chat.turns[0].speaker or "someone").replace("<", "").replace(">", "")
        stamp = f"{int(chat.at.timestamp())} {chat.at.strftime('%z') or '+0000'}"
        data = chat.turns[0].text.encode("utf-8") + b"\n"
        stream += f"commit refs/heads/main\nauthor {who} <bench@example.invalid> {stamp}\n".encode()
        stream += f"committer {who} <bench@example.invalid> {stamp}\ndata {len(data)}\n".encode() + data + b"\n"
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=bytes(stream), check=True)
    found = read_git_log(repo, environ={"PATH": os.environ.get("PATH", "")})
    return [Chat(d.ref, list(d.turns), d.occurred_at or d.turns[0].occurred_at, d) for d in found.documents]  # type: ignore[arg-type]


def parse_commits(text: str) -> list[Chat]:
    """`git log` text as one-turn sessions (the message, said by the author at the commit's date)."""
    chats: list[Chat] = []
    parts = _COMMIT.split(text)
    for sha, body in zip(parts[1::2], parts[2::2], strict=True):
        head, _, message = body.strip("\n").partition("\n\n")
        headers = {m[1]: m[2] for line in head.splitlines() if (m := _HEADER.match(line))}
        at = datetime.strptime(headers["Date"].strip(), "%a %b %d %H:%M:%S %Y %z")
        lines = [line[4:] if line.startswith("    ") else line.strip() for line in message.splitlines()]
        author = headers.get("Author", "").split("<")[0].strip() or None
        turn = Turn(index=0, role=Role.USER, speaker=author, text="\n".join(lines).strip(), occurred_at=at)
        chats.append(Chat(f"commit:{sha}", [turn], at))
    return chats


def _chats(folder: Path, project: str, labels: list[dict[str, Any]], tmp: Path | None = None) -> list[Chat]:
    chats = [
        Chat(lab["id"], read_turns(folder / lab["file"], human=lab.get("human"), when=lab["started_at"]),
             parse_time(lab["started_at"]))
        for lab in labels
        if lab["project"] == project
    ]  # fmt: skip
    log = folder / "commits" / f"{project}.txt"
    if log.is_file():
        commits = parse_commits(log.read_text("utf-8"))
        chats += git_documents(commits, tmp / project) if tmp is not None and COMMITS == "git" else commits
    return sorted(chats, key=lambda chat: chat.at)


def approve_pending(memory: Forethought, scope: Scope, tally: Counter[str]) -> None:
    """Approve every pending candidate; count what cannot be."""
    for record in memory.inbox(scope, limit=10_000).pending:
        if Flag.INJECTION.value in record.flags:
            tally["flagged_not_approvable"] += 1
            continue
        conflicts = record.relation is not None and record.relation.label is RelationLabel.CONFLICTS
        try:
            memory.approve(scope, record.id, conflict="supersede" if conflicts else None, reason="bench")
            tally["approved"] += 1
        except InvalidInput:
            tally["approve_failed"] += 1


@dataclass
class Tally:
    strict: int = 0
    lenient: int = 0
    stale: int = 0
    amended: int = 0
    items: int = 0
    by_excerpt: int = 0  # strict hits that only an excerpt made
    imports: Counter[str] = field(default_factory=Counter)
    not_stored: list[str] = field(default_factory=list)
    not_briefed: list[str] = field(default_factory=list)
    lenient_only: list[str] = field(default_factory=list)
    stale_ids: list[str] = field(default_factory=list)


def _is_stale(record: Record, task: dict[str, Any]) -> bool:
    old, amended = task["deciding"]["quote"], task["amended"]
    if quotes_overlap(record, [old]):
        return True
    stale_words = covers(" ".join(texts_of(record)), amended["stale_statement"])
    return stale_words and not quotes_overlap(record, [amended["quote"]])


def _score_task(memory: Forethought, task: dict[str, Any], tally: Tally) -> None:
    scope = memory.scope("project", task["project"])
    rule = task.get("amended") or task["deciding"]
    brief = memory.brief(scope, task["report"], file_paths=task.get("file_paths") or [], limit=5, max_excerpts=EXCERPTS)
    used = [item.record for item in brief.used]
    quotes = [e.quote for e in brief.excerpts]
    tally.items += len(used) + len(quotes)
    by_record = any(quotes_overlap(r, [rule["quote"]]) for r in used)
    strict = by_record or any(overlaps(q, rule["quote"]) for q in quotes)
    tally.by_excerpt += strict and not by_record
    lenient = strict or any(covers(" ".join(texts_of(r)), rule["statement"]) for r in used)
    tally.strict += strict
    tally.lenient += lenient
    if not strict:
        stored = any(quotes_overlap(r, [rule["quote"]]) for r in all_records(memory, scope))
        (tally.not_briefed if stored else tally.not_stored).append(task["id"])
        if lenient:
            tally.lenient_only.append(task["id"])
    if task.get("amended"):
        tally.amended += 1
        if any(_is_stale(r, task) for r in used) or any(overlaps(q, task["deciding"]["quote"]) for q in quotes):
            tally.stale += 1
            tally.stale_ids.append(task["id"])


def score_bugfix(folder: Path, embedder: str = "minilm") -> dict[str, Any]:
    labels = read_jsonl(folder / "labels.jsonl")
    tasks = read_jsonl(folder / "tasks.jsonl")
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp, Forethought.open(Path(tmp) / "q.db", embedder=embedder) as memory:
        for project in sorted({lab["project"] for lab in labels} | {t["project"] for t in tasks}):
            scope = memory.scope("project", project)
            for chat in _chats(folder, project, labels, Path(tmp)):
                if chat.document is not None:
                    memory.file_documents(scope, [chat.document])
                    tally.imports["commits"] += 1
                else:
                    memory.submit_session(scope, chat.turns, title=chat.id, source="import")
                    tally.imports["sessions"] += 1
                approve_pending(memory, scope, tally.imports)
            tally.imports["active_records"] += len(all_records(memory, scope))
        for task in tasks:
            _score_task(memory, task, tally)
    return {
        "tasks": len(tasks),
        "hit_rate_strict": ratio(tally.strict, len(tasks)),
        "hit_rate_lenient": ratio(tally.lenient, len(tasks)),
        "hits_by_excerpt": tally.by_excerpt,
        "lenient_share": LENIENT_SHARE,
        "amended_tasks": tally.amended,
        "stale": tally.stale,
        "mean_items": round(tally.items / len(tasks), 2) if tasks else None,
        "imports": dict(tally.imports),
        "missed_not_stored": tally.not_stored,
        "missed_stored_not_briefed": tally.not_briefed,
        "lenient_only_hits": tally.lenient_only,
        "stale_ids": tally.stale_ids,
    }


def rows(result: dict[str, Any]) -> list[Row]:
    return [
        Row("bugfix", "hit rate, strict (quote overlap)", result["hit_rate_strict"], result["tasks"]),
        Row("bugfix", "hit rate, lenient (≥60% content words)", result["hit_rate_lenient"], result["tasks"]),
        Row("bugfix", "strict hits made by an excerpt", result.get("hits_by_excerpt"), result["tasks"]),
        Row("bugfix", "stale briefs (amended tasks)", result["stale"], result["amended_tasks"]),
        Row("bugfix", "brief mean items", result["mean_items"], result["tasks"]),
    ]


def failing(result: dict[str, Any]) -> dict[str, list[str]]:
    return {
        "bugfix: missed, rule not stored": result["missed_not_stored"],
        "bugfix: missed, stored but not briefed": result["missed_stored_not_briefed"],
        "bugfix: lenient-only hits": result["lenient_only_hits"],
        "bugfix: stale": result["stale_ids"],
    }
