"""The one façade every front end calls: `Forethought.open(path)`.

`Forethought` composes the memory core (`memory.Memory`: records, recall, writing, outbox,
transfer, keys) and the pipeline (`pipeline.Pipeline`: turn, brief, check, ask, sessions, inbox).
It is the only top-level module that imports the pipeline, and it adds no logic of its own: each
method says what it does in one line and hands over.

One rule names a subject everywhere: a `Scope`, made once by `scope(app, subject, workspace=...)`
and passed as the first argument of every call about that subject.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from forethought.apps.base import App
from forethought.domain import AuditEvent, CheckPatterns, Evidence, Record, Role, Session, Space, Status, Turn
from forethought.domain.documents import SourceDocument
from forethought.domain.keys import ApiKey, KeyRole
from forethought.embed.base import Embedder
from forethought.llm.base import ChatModel
from forethought.memory import History, Memory, OutboxReport, Retained, RetainItem, Scope
from forethought.memory.scope import find_app
from forethought.memory.writing import TimeRef
from forethought.pipeline.documents import DocumentImport
from forethought.pipeline.reports import Answer, Brief, CheckReport
from forethought.pipeline.review import Submission
from forethought.pipeline.service import Extracted, Inbox, Pipeline, SessionSubmission
from forethought.pipeline.staleness import Verdict
from forethought.pipeline.trace import Trace
from forethought.pipeline.turn import TurnResult
from forethought.plugins import open_store, registry
from forethought.recall import RecallConfig, RecallEngine, RecallResult
from forethought.store.base import Store
from forethought.targets import backend_for
from forethought.upkeep import Upkeep

__all__ = ["Forethought", "History", "OutboxReport", "RetainItem", "Retained", "Scope"]


class Forethought(Upkeep):
    """Governed memory over one store, one embedder and, optionally, one chat model (upkeep: `Upkeep`)."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        *,
        actor: str = "api",
        model: ChatModel | None = None,
        engine: RecallEngine | None = None,
    ) -> None:
        self.memory = Memory(store, embedder, actor=actor, engine=engine)
        self.pipeline = Pipeline(self.memory, model)  # model None: heuristic mode, and labelled so

    @classmethod
    def open(
        cls,
        path: str | Path = ".forethought/forethought.db",
        *,
        embedder: Embedder | str | None = "minilm",
        actor: str = "api",
        model: ChatModel | None = None,
        store: str | None = None,
        engine: RecallEngine | None = None,
    ) -> Forethought:
        """Open the store at `path`: a SQLite file (created if needed), a `postgresql://` URL (an existing
        database), or the backend `store` names. `embedder`: an Embedder, "minilm" (the shipped ONNX model),
        "hashing" (no model) or None (keyword and term recall); `engine`: None (built-in) or e.g. Hindsight."""
        chosen = registry().embedder(embedder)() if isinstance(embedder, str) else embedder
        backend = open_store(store or backend_for(path), path, dim=chosen.dim if chosen is not None else 384)
        return cls(backend, chosen, actor=actor, model=model, engine=engine)

    # -- what it runs on -------------------------------------------------------------------
    @property
    def store(self) -> Store:
        return self.memory.store

    @property
    def embedder(self) -> Embedder | None:
        return self.memory.embedder

    @property
    def actor(self) -> str:
        return self.memory.actor

    @property
    def model(self) -> ChatModel | None:
        return self.pipeline.model

    @model.setter
    def model(self, model: ChatModel | None) -> None:
        self.pipeline.model = model

    def acting_as(self, actor: str) -> Forethought:
        """This memory writing `actor` into audit events (the server: one per API key)."""
        clone = copy.copy(self)
        clone.memory = self.memory.acting_as(actor)
        clone.pipeline = Pipeline(clone.memory, self.pipeline.model)
        return clone

    def __enter__(self) -> Forethought:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- subjects and spaces ---------------------------------------------------------------
    def scope(self, app: App | str, subject: str, *, workspace: str = "default", field: str = "subject") -> Scope:
        """The Scope naming `subject` of `app` in `workspace` (nothing is created until a write)."""
        return self.memory.scope(app, subject, workspace=workspace, field=field)

    def app(self, name: str) -> App:
        """The installed app called `name` (UnknownApp, a NotFound, otherwise)."""
        return find_app(name)

    def space(self, scope: Scope, *, create: bool = True) -> Space:
        """The space behind a scope, created on first use (NotFound when absent and not `create`)."""
        own = self.memory.own(scope)
        return own.space() if create else own.require()

    def list_spaces(self, workspace: str, *, subject_type: str | None = None) -> list[Space]:
        return self.memory.list_spaces(workspace, subject_type=subject_type)

    def erase_space(self, scope: Scope) -> int:  # everything the space holds; returns the records erased
        return self.memory.erase_space(scope)

    # -- api keys --------------------------------------------------------------------------
    def create_api_key(self, workspace: str, *, name: str = "default", role: KeyRole = "member") -> tuple[ApiKey, str]:
        """A new key for `workspace` (shown once, never stored); an admin key may manage keys and erase."""
        return self.memory.keys.create(workspace, name=name, role=role)

    def authenticate(self, full_key: str) -> ApiKey | None:
        """The active key matching `full_key`, or None (unknown, malformed or revoked)."""
        return self.memory.keys.authenticate(full_key)

    def revoke_api_key(self, key_id: str, *, workspace: str | None = None) -> ApiKey:
        """Revoke a key (idempotent); with `workspace`, another workspace's key is NotFound."""
        return self.memory.keys.revoke(key_id, workspace=workspace)

    def list_api_keys(self, workspace: str | None = None) -> list[ApiKey]:
        return self.memory.keys.list(workspace)

    # -- records ---------------------------------------------------------------------------
    def retain(
        self,
        scope: Scope,
        text: str,
        *,
        kind: str = "note",
        tags: Sequence[str] = (),
        occurred_at: TimeRef = None,
        external_id: str | None = None,
        attributes: dict[str, Any] | None = None,
        evidence: Sequence[Evidence] = (),
        confidence: float = 1.0,
        status: Status = Status.ACTIVE,
        asserted_by: Role = Role.USER,
        source: str = "api",
        context: str | None = None,
        check: CheckPatterns | None = None,
    ) -> Retained:
        """Store one memory (idempotent by `external_id`); see `Memory.retain`."""
        return self.memory.retain(
            scope,
            text,
            kind=kind,
            tags=tags,
            occurred_at=occurred_at,
            external_id=external_id,
            attributes=attributes,
            evidence=evidence,
            confidence=confidence,
            status=status,
            asserted_by=asserted_by,
            source=source,
            context=context,
            check=check,
        )

    def retain_many(
        self,
        scope: Scope,
        items: Iterable[RetainItem],
        *,
        source: str = "api",
        batch_size: int = 64,
        progress: Callable[[int], None] | None = None,
    ) -> list[Retained]:
        """Store many memories, embedded in batches, each batch one transaction."""
        return self.memory.retain_many(scope, items, source=source, batch_size=batch_size, progress=progress)

    def supersede(
        self,
        scope: Scope,
        old_id: str,
        text: str,
        *,
        kind: str | None = None,
        tags: Sequence[str] | None = None,
        occurred_at: TimeRef = None,
        reason: str | None = None,
        attributes: dict[str, Any] | None = None,
    ) -> Record:
        """Replace an active record with a new fact; the old one is valid until the new one's time."""
        return self.memory.supersede(
            scope, old_id, text, kind=kind, tags=tags, occurred_at=occurred_at, reason=reason, attributes=attributes
        )

    def edit(
        self, scope: Scope, record_id: str, text: str, *, tags: Sequence[str] | None = None, reason: str | None = None
    ) -> Record:
        """A corrected version of a record (same lineage, same valid time)."""
        return self.memory.edit(scope, record_id, text, tags=tags, reason=reason)

    def reject(self, scope: Scope, record_id: str, *, reason: str | None = None) -> Record:
        return self.memory.reject(scope, record_id, reason=reason)

    def retract(self, scope: Scope, record_id: str, *, why: str) -> Record:
        """Withdraw an active record that was wrong; it stays in history, never in recall."""
        return self.memory.retract(scope, record_id, why=why)

    def forget(self, scope: Scope, record_id: str, *, redact_sources: bool = False) -> int:
        """Erase a record's every version everywhere (`redact_sources`: its words in turns too)."""
        return self.memory.forget(scope, record_id, redact_sources=redact_sources)

    def delete_session(self, scope: Scope, session_id: str) -> int:
        return self.memory.delete_session(scope, session_id)  # its turns, keyword entries, traces

    def get(self, scope: Scope, record_id: str) -> Record:
        return self.memory.get(scope, record_id)

    def recall(
        self,
        scope: Scope,
        query: str,
        *,
        k: int = 10,
        kinds: Sequence[str] = (),
        tags: Sequence[str] = (),
        statuses: Sequence[Status] | None = None,
        as_of: TimeRef = None,
        after: TimeRef = None,
        before: TimeRef = None,
        strategy: str | RecallConfig = "balanced",
        token_budget: int | None = None,
    ) -> RecallResult:
        """The records most relevant to `query` (current ones unless `statuses` or `as_of` say)."""
        return self.memory.recall(
            scope,
            query,
            k=k,
            kinds=kinds,
            tags=tags,
            statuses=statuses,
            as_of=as_of,
            after=after,
            before=before,
            strategy=strategy,
            token_budget=token_budget,
        )

    def history(self, scope: Scope, record_id: str) -> History:
        """The record's versions and supersession chain (both directions), oldest first."""
        return self.memory.history(scope, record_id)

    def audit_events(
        self, scope: Scope, *, record_id: str | None = None, limit: int = 100, before_seq: int | None = None
    ) -> list[AuditEvent]:
        """A space's audit events, newest first; `before_seq` continues from an event's `seq`."""
        return self.memory.audit_events(scope, record_id=record_id, limit=limit, before_seq=before_seq)

    def list_records(
        self,
        scope: Scope,
        *,
        statuses: Sequence[Status] = (Status.ACTIVE,),
        kinds: Sequence[str] = (),
        tags: Sequence[str] = (),
        as_of: TimeRef = None,
        limit: int = 100,
        after_id: str | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records by when they were recorded, filtered in the store."""
        return self.memory.list_records(scope, statuses=statuses, kinds=kinds, tags=tags, as_of=as_of, limit=limit,
                                        after_id=after_id, newest_first=newest_first)  # fmt: skip

    def export_jsonl(self, scope: Scope, path: str | Path) -> int:
        """Write every record (all statuses and versions) and audit event of a space to JSONL."""
        return self.memory.export_jsonl(scope, path)

    def import_jsonl(
        self, scope: Scope, path: str | Path, *, progress: Callable[[int, int], None] | None = None
    ) -> int:
        """Read a file written by `export_jsonl` into a space (validated first; duplicates skipped)."""
        return self.memory.import_jsonl(scope, path, progress=progress)

    # -- the pipeline ----------------------------------------------------------------------
    def turn(self, scope: Scope, message: str, *, session_id: str | None = None, brief_limit: int = 5) -> TurnResult:
        """One governed turn: the reply, the session it belongs to, its trace."""
        return self.pipeline.turn(scope, message, session_id=session_id, brief_limit=brief_limit)

    def brief(self, scope: Scope, task: str, *, limit: int = 5, file_paths: Sequence[str] = (),
              max_excerpts: int = 3) -> Brief:  # fmt: skip
        """The records that apply to `task` with reasons, past-session excerpts, the memory block."""
        return self.pipeline.brief(scope, task, limit=limit, file_paths=file_paths, max_excerpts=max_excerpts)

    def check(self, scope: Scope, draft: str, *, records: Sequence[Record] | None = None,
              path: str | None = None, diff: bool = False) -> CheckReport:  # fmt: skip
        """Violations of memory in `draft` (deterministic checks, and the judge with a model); `path`,
        the file the draft is for, keeps rules about other files off it; `diff`: a unified diff."""
        return self.pipeline.check(scope, draft, records=records, path=path, diff=diff)

    def ask(self, scope: Scope, question: str) -> Answer:
        """An answer drawn only from memory, citing the records it relies on."""
        return self.pipeline.ask(scope, question)

    def extract(
        self, app: App | str, transcript: bytes | str, *, fmt: str = "auto", human: str | None = None
    ) -> Extracted:
        """What a transcript would give to remember — validated, nothing written."""
        return self.pipeline.extract(find_app(app), transcript, fmt=fmt, human=human)

    def submit_session(
        self,
        scope: Scope,
        transcript: bytes | str | Sequence[Turn],
        *,
        title: str,
        fmt: str = "auto",
        source: str = "import",
        human: str | None = None,
        occurred_at: datetime | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> SessionSubmission:
        """Capture a transcript (secrets scrubbed) and send what it gives to remember to the inbox
        (`human`: the person among named speakers; `occurred_at`: when an undated session happened)."""
        return self.pipeline.submit_session(
            scope, transcript, title=title, fmt=fmt, source=source, human=human, occurred_at=occurred_at,
            progress=progress,
        )  # fmt: skip

    def file_documents(self, scope: Scope, documents: Sequence[SourceDocument], *,
                       progress: Callable[[int, int], None] | None = None) -> DocumentImport:  # fmt: skip
        """File what a project already wrote (commits, ADRs, rule files) as sessions, proposals to the inbox."""
        return self.pipeline.file_documents(scope, documents, progress=progress)

    def promote_excerpt(self, scope: Scope, session_id: str, turn_index: int, quote: str, *, kind: str | None = None,
                        statement: str | None = None, source: str = "api") -> Submission:  # fmt: skip
        """File a brief's excerpt (`quote`, verbatim from that turn) as a candidate, validated and
        reviewed like anything captured; without `kind` the app's extractor reads it."""
        return self.pipeline.promote_excerpt(scope, session_id, turn_index, quote, kind=kind, statement=statement,
                                             source=source)  # fmt: skip

    def inbox(self, scope: Scope, *, limit: int = 200) -> Inbox:
        """Candidates waiting for a person, and those the validator filtered."""
        return self.pipeline.inbox(scope, limit=limit)

    def approve(
        self,
        scope: Scope,
        record_id: str,
        *,
        reason: str | None = None,
        conflict: Literal["supersede", "keep_both"] | None = None,
        supersedes: str | None = None,
    ) -> Record:
        """Approve a candidate (see `Pipeline.approve` for flags, supersession and conflicts)."""
        return self.pipeline.approve(scope, record_id, reason=reason, conflict=conflict, supersedes=supersedes)

    def note_review(self, scope: Scope, record_id: str, verdict: Verdict, *, reason: str | None = None,
                    subject: str | None = None) -> AuditEvent:  # fmt: skip
        """Mark a current record confirmed or stale; a shared rule overridden or restored for `subject`."""
        return self.pipeline.note_review(scope, record_id, verdict, reason=reason, subject=subject)

    def approve_all(self, scope: Scope, *, high_confidence: bool = False) -> list[Record]:
        """Approve every unflagged, conflict-free candidate (with `high_confidence`: ≥ 0.8 and new)."""
        return self.pipeline.approve_all(scope, high_confidence=high_confidence)

    def list_sessions(self, scope: Scope, *, limit: int = 50, before_id: str | None = None) -> list[Session]:
        return self.pipeline.list_sessions(scope, limit=limit, before_id=before_id)  # newest first

    def get_session(self, scope: Scope, session_id: str) -> Session:
        return self.pipeline.get_session(scope, session_id)  # with its turns; NotFound for another space's

    def list_traces(self, scope: Scope, *, limit: int = 50, before_id: str | None = None) -> list[Trace]:
        """Stored traces, newest first (a keyset cursor in `before_id`)."""
        return self.pipeline.list_traces(scope, limit=limit, before_id=before_id)

    def trace(self, scope: Scope, trace_id: str) -> Trace:
        """One stored trace; NotFound for an unknown id or one of another space."""
        return self.pipeline.trace(scope, trace_id)
