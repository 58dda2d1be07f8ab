"""Transcript imports: planned in the request, run in stages, progress published as events.

`plan_import` parses everything first (a file may hold several sessions: a JSON object
`{"sessions": [{"title", "messages"}, ...]}`, or JSON Lines whose objects carry a `sessionId` or
`session_id`), so bad input is refused before anything is written. `run_import` then hands each
session to the façade's `submit_session` (scrub → capture → extract → validate → relate → review)
and reports each stage of each one (captured, extracted, validated, filed). The page without
JavaScript runs it in the request; with JavaScript an `ImportJob` runs it in a thread and the page
follows its events over server-sent events.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Literal

from forethought.domain import SpaceKey, Turn
from forethought.domain.ids import new_id
from forethought.errors import ForethoughtError, InvalidInput
from forethought.facade import Forethought, Scope
from forethought.pipeline.transcripts import FORMATS, parse_transcript
from forethought.text.jsontext import load_json

__all__ = [
    "FORMATS",
    "ImportJob",
    "ImportJobs",
    "ImportSummary",
    "PlannedSession",
    "Progress",
    "plan_import",
    "run_import",
]

log = logging.getLogger("forethought.web")

Stage = Literal["parse", "remember", "done", "failed"]
MAX_TITLE = 120
MAX_JOBS = 64
_SESSION_FIELDS = ("sessionId", "session_id")


@dataclass(frozen=True)
class Progress:
    """One event of an import: the stage, how far along it is, and a line for people."""

    seq: int
    stage: Stage
    percent: int
    message: str
    finished: bool = False

    def as_json(self) -> str:
        return json.dumps(asdict(self))


@dataclass(frozen=True)
class PlannedSession:
    title: str
    turns: list[Turn]
    occurred_at: datetime | None = None  # when it happened, as the importer said (aware)


@dataclass
class ImportSummary:
    sessions: int = 0
    turns: int = 0
    pending: int = 0  # candidates waiting in the inbox
    approved: int = 0  # approved on arrival by the app's policy
    merged: int = 0  # duplicates that added evidence to an existing record
    rejected: int = 0  # filtered out by the validator (listed in the inbox)
    mode: str = "heuristic"


def _title(base: str, own: object, index: int, count: int) -> str:
    if isinstance(own, str) and own.strip():
        return own.strip()[:MAX_TITLE]
    return base if count == 1 else f"{base} ({index + 1}/{count})"


def _split(text: str, fmt: str) -> list[tuple[object, str, str]]:
    """(own title, text, format) per session of a multi-session file; one item otherwise."""
    stripped = text.lstrip()
    if fmt in ("auto", "json") and stripped.startswith("{"):
        try:
            loaded = load_json(text, what="transcript")
        except json.JSONDecodeError:
            loaded = None  # perhaps JSON Lines; parse_transcript says what is wrong otherwise
        if isinstance(loaded, dict) and "sessions" in loaded:
            sessions = loaded["sessions"]
            if not isinstance(sessions, list) or not sessions:
                raise InvalidInput("transcript: 'sessions' must be a non-empty list")
            if not all(isinstance(s, dict) and isinstance(s.get("messages"), list) for s in sessions):
                raise InvalidInput("transcript: every session needs a 'messages' list")
            return [(s.get("title"), json.dumps({"messages": s["messages"]}), "json") for s in sessions]
    if fmt in ("auto", "jsonl") and stripped.startswith("{"):
        groups: dict[str, list[str]] = {}
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                item = load_json(line, what="transcript")
            except json.JSONDecodeError:
                return [(None, text, fmt)]  # parse_transcript reports the line
            session = next((item.get(f) for f in _SESSION_FIELDS if isinstance(item, dict) and item.get(f)), "")
            groups.setdefault(str(session), []).append(line)
        if len(groups) > 1:
            return [(None, "\n".join(lines), "jsonl") for lines in groups.values()]
    return [(None, text, fmt)]


def plan_import(
    data: bytes | str,
    *,
    fmt: str = "auto",
    title: str = "imported transcript",
    human: str | None = None,
    occurred_at: datetime | None = None,
) -> list[PlannedSession]:
    """Every session of the transcript, parsed and checked; raises InvalidInput before any write.
    `human` names the person among named speakers; `occurred_at` dates every session of it."""
    if fmt not in FORMATS:
        raise InvalidInput(f"format: {fmt!r} is not one of {', '.join(FORMATS)}")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("transcript: not valid UTF-8") from None
    if not data.strip():
        raise InvalidInput("transcript: paste a transcript or choose a file")
    base = title.strip()[:MAX_TITLE] or "imported transcript"
    parts = _split(data, fmt)
    return [
        PlannedSession(_title(base, own, i, len(parts)), parse_transcript(text, fmt=part_fmt, human=human), occurred_at)
        for i, (own, text, part_fmt) in enumerate(parts)
    ]


Report = Callable[[Stage, int, str], None]
# What `submit_session` reports for each session, in order; the last step is the session's end.
_STAGES = ("captured", "extracted", "validated", "filed")


def run_import(memory: Forethought, scope: Scope, plan: list[PlannedSession], report: Report) -> ImportSummary:
    """Submit each planned session through the façade, reporting progress after each."""
    summary = ImportSummary(sessions=len(plan), turns=sum(len(p.turns) for p in plan))
    report("parse", 10, f"{summary.sessions} session(s), {summary.turns} turn(s) read")
    for index, planned in enumerate(plan):
        start = 10 + (90 * index) // len(plan)
        width = 10 + (90 * (index + 1)) // len(plan) - start
        where = f"session {index + 1} of {len(plan)}"  # the last stage, filed, ends the session

        def stage_done(stage: str, start: int = start, width: int = width, where: str = where) -> None:
            step = _STAGES.index(stage) + 1 if stage in _STAGES else 0
            report("remember", start + (width * step) // len(_STAGES), f"{where}: {stage}")

        done = memory.submit_session(
            scope,
            planned.turns,
            title=planned.title,
            source="import",
            occurred_at=planned.occurred_at,
            progress=stage_done,
        )
        result = done.result.submission
        summary.pending += result.count("pending")
        summary.approved += result.count("approved")
        summary.merged += result.count("merged")
        summary.rejected += len(result.rejected)
        summary.mode = done.result.mode
    report("done", 100, f"{summary.pending} to review, {summary.approved} approved, {summary.rejected} filtered")
    return summary


@dataclass
class ImportJob:
    """An import running in a thread; its events are kept so a page can follow (or re-follow) it."""

    id: str
    key: SpaceKey
    events: list[Progress] = field(default_factory=list)
    _changed: threading.Condition = field(default_factory=threading.Condition, repr=False)

    @property
    def finished(self) -> bool:
        with self._changed:
            return bool(self.events) and self.events[-1].finished

    def publish(self, stage: Stage, percent: int, message: str) -> None:
        with self._changed:
            finished = stage in ("done", "failed")
            self.events.append(Progress(len(self.events), stage, percent, message, finished))
            self._changed.notify_all()

    def events_after(self, seq: int, *, timeout_s: float) -> list[Progress]:
        """Events after `seq` (-1 for all), waiting up to `timeout_s` for one to arrive."""
        with self._changed:
            self._changed.wait_for(lambda: len(self.events) > seq + 1, timeout=timeout_s)
            return self.events[seq + 1 :]

    def run(self, memory: Forethought, scope: Scope, plan: list[PlannedSession]) -> None:
        try:
            run_import(memory, scope, plan, self.publish)
        except ForethoughtError as exc:
            self.publish("failed", 100, f"the import stopped: {exc.summary}")
        except Exception:  # the thread must always finish its stream; the log has the details
            log.exception("import %s failed", self.id)
            self.publish("failed", 100, "the import failed; see the server log")


class ImportJobs:
    """Imports started in this process, newest kept; each visible only from its own space."""

    def __init__(self) -> None:
        self._jobs: dict[str, ImportJob] = {}
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def wait(self, timeout_s: float = 60.0) -> bool:
        """Wait for running imports to end (before the store they write to closes); True when
        none is left running."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            return not self._threads

    def start(self, memory: Forethought, scope: Scope, plan: list[PlannedSession]) -> ImportJob:
        job = ImportJob(new_id(), scope.key)
        with self._lock:
            while len(self._jobs) >= MAX_JOBS:
                oldest = next((i for i, j in self._jobs.items() if j.finished), next(iter(self._jobs)))
                del self._jobs[oldest]
            self._jobs[job.id] = job
        thread = threading.Thread(target=job.run, args=(memory, scope, plan), name=f"import-{job.id}", daemon=True)
        with self._lock:
            self._threads = [*(t for t in self._threads if t.is_alive()), thread]
        thread.start()
        return job

    def get(self, job_id: str, key: SpaceKey) -> ImportJob | None:
        with self._lock:
            job = self._jobs.get(job_id)
        return job if job is not None and job.key == key else None
