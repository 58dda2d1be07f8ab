"""Transcript imports: planned in the request, run in stages, progress published as events.

`plan_import` parses everything first (a file may hold several sessions: a JSON object
`{"sessions": [{"title", "messages"}, ...]}`, or JSON Lines whose objects carry a `sessionId` or
`session_id`), so bad input is refused before anything is written. `run_import` then hands each
session to the façade's `submit_session` (scrub → capture → extract → validate → relate → review)
and reports each stage of each one (captured, extracted, validated, filed). The page without
JavaScript runs it in the request; with JavaScript `ImportJobs` runs it in a thread, its events
are kept in the store, and the page follows them over server-sent events from whichever server
process its request reaches.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Literal

from forethought.domain import Turn
from forethought.domain.ids import new_id
from forethought.domain.times import utcnow
from forethought.errors import ForethoughtError, InvalidInput
from forethought.facade import Forethought, Scope
from forethought.pipeline.transcripts import FORMATS, parse_transcript
from forethought.store.contracts.imports import ImportEvent, ImportJobLimits, ImportJobStore, ImportsFull, ImportView
from forethought.text.jsontext import load_json

__all__ = [
    "FORMATS",
    "WORKER_STOPPED",
    "ImportJobs",
    "ImportSummary",
    "ImportsFull",
    "PlannedSession",
    "Progress",
    "plan_import",
    "run_import",
]

log = logging.getLogger("forethought.web")

Stage = Literal["parse", "remember", "done", "failed"]
MAX_TITLE = 120
HEARTBEAT_S = 5.0  # a running job's process says it is alive this often
# Jobs kept per space, events per job (a file of many sessions drops its oldest steps), no word
# from its process for 30 s means the process is gone, and a day untouched the job is forgotten.
LIMITS = ImportJobLimits(per_space=20, events=1000, stale_s=30.0, keep_s=24 * 3600.0)
MAX_JOB_ID = 64  # job ids are 26-character ULIDs; anything longer is no job
FOLLOW_BATCH = 200  # events read at once by a follower
WORKER_STOPPED = "the worker running this import stopped; import the file again"
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

    @classmethod
    def of(cls, event: ImportEvent) -> Progress:
        stage: Stage = event.stage if event.stage in ("parse", "remember", "done") else "failed"  # type: ignore[assignment]
        return cls(event.seq, stage, event.percent, event.message, event.finished)


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


class ImportJobs:
    """Imports started from the web workspace. A job runs in a thread of the process that accepted
    it; its record and events are the store's (`store.imports`), so any process can follow it,
    and only from its own space. While it runs its process beats every `HEARTBEAT_S`; a job not
    heard of for `STALE_S` has lost its process, and the first follower to notice ends its stream
    with a failed event. `clock` is for the tests."""

    def __init__(self, store: ImportJobStore, *, clock: Callable[[], datetime] = utcnow) -> None:
        self._store = store
        self._clock = clock
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def wait(self, timeout_s: float = 60.0) -> bool:
        """Wait for this process's running imports to end (before the store they write to
        closes); True when none is left running."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            return not self._threads

    def start(self, memory: Forethought, scope: Scope, plan: list[PlannedSession]) -> str:
        """Record the job in the store and run it in a thread; its id. Raises ImportsFull when
        the space's every kept job is still running."""
        job_id = new_id()
        self._store.start(job_id, scope.space().id, self._clock(), LIMITS)
        thread = threading.Thread(
            target=self._run, args=(job_id, memory, scope, plan), name=f"import-{job_id}", daemon=True
        )
        with self._lock:
            self._threads = [*(t for t in self._threads if t.is_alive()), thread]
        thread.start()
        return job_id

    def follow(self, job_id: str, scope: Scope, after_seq: int, *, limit: int = FOLLOW_BATCH) -> ImportView | None:
        """The job's events after `after_seq`, or None when this space has no such job. A job
        whose process stopped is ended here, with a failed event that says so."""
        space = scope.existing()
        if space is None or not 0 < len(job_id) <= MAX_JOB_ID:
            return None
        view = self._store.follow(job_id, space.id, after_seq, limit)
        if view is None or view.finished or view.events:
            return view
        now = self._clock()
        if (now - view.updated_at).total_seconds() > LIMITS.stale_s:
            self._store.abandon(job_id, space.id, now - timedelta(seconds=LIMITS.stale_s), WORKER_STOPPED, now)
            return self._store.follow(job_id, space.id, after_seq, limit)
        return view

    def _run(self, job_id: str, memory: Forethought, scope: Scope, plan: list[PlannedSession]) -> None:
        def publish(stage: Stage, percent: int, message: str) -> None:
            finished = stage in ("done", "failed")
            self._store.publish(job_id, stage, percent, message, finished=finished, now=self._clock(), limits=LIMITS)

        done = threading.Event()
        beat = threading.Thread(target=self._beat, args=(job_id, done), name=f"import-beat-{job_id}", daemon=True)
        beat.start()
        try:
            run_import(memory, scope, plan, publish)
        except ForethoughtError as exc:
            self._publish_quietly(publish, f"the import stopped: {exc.summary}")
        except Exception:  # the thread must always finish its stream; the log has the details
            log.exception("import %s failed", job_id)
            self._publish_quietly(publish, "the import failed; see the server log")
        finally:
            done.set()
            beat.join()

    def _beat(self, job_id: str, done: threading.Event) -> None:
        while not done.wait(HEARTBEAT_S):
            try:
                self._store.beat(job_id, self._clock())
            except ForethoughtError:  # a busy store misses one beat; the next one counts
                log.warning("import %s: heartbeat not written", job_id)

    @staticmethod
    def _publish_quietly(publish: Report, message: str) -> None:
        try:
            publish("failed", 100, message)
        except ForethoughtError:  # the store itself failed: followers will see the job go stale
            log.exception("could not record the end of an import")
