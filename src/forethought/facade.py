"""The one façade every front end calls: `Forethought.open(path)`."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from forethought.domain import (
    AuditEvent,
    CheckPatterns,
    Evidence,
    Provenance,
    Record,
    Role,
    Space,
    SpaceKey,
    Status,
    limits,
    transition,
)
from forethought.domain.keys import ApiKey
from forethought.domain.times import parse_time, utcnow
from forethought.embed.base import Embedder
from forethought.errors import InvalidInput, NotFound, validation_reason
from forethought.llm.base import ChatModel
from forethought.outbox import OutboxReport, drain
from forethought.pipeline.service import PipelineApi
from forethought.recall import RecallConfig, RecallRequest, RecallResult, preset, run_recall
from forethought.store.base import ChangeSet, NewRecord, RecordFilter, Store
from forethought.writing import (
    Draft,
    Retained,
    RetainItem,
    TimeRef,
    created_event,
    index_records,
    make_draft,
    new_record,
    next_version,
    retain_drafts,
)

__all__ = ["Forethought", "History", "OutboxReport", "RetainItem", "Retained", "SpaceRef"]

log = logging.getLogger(__name__)

SpaceRef = SpaceKey | str


@dataclass(frozen=True)
class History:
    """Everything linked to one record: its versions and what it superseded / was superseded by,
    oldest first, and the audit events of those records, newest first."""

    record: Record
    chain: list[Record]
    events: list[AuditEvent] = field(default_factory=list)


class Forethought(PipelineApi):
    """Governed memory over one store, one embedder and, optionally, one chat model."""

    def __init__(
        self, store: Store, embedder: Embedder | None, *, actor: str = "api", model: ChatModel | None = None
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.actor = actor
        self.model = model  # None: heuristic mode (every stage rule-based, and labelled so)
        if embedder is not None:
            store.check_embedder(embedder.name, embedder.dim)

    @classmethod
    def open(
        cls,
        path: str | Path = ".forethought/forethought.db",
        *,
        embedder: Embedder | str | None = "minilm",
        actor: str = "api",
        model: ChatModel | None = None,
    ) -> Forethought:
        """Open (creating if needed) the SQLite store at `path`.

        `embedder` is an Embedder, or "minilm" (the shipped ONNX model), "hashing" (no model), or
        None (keyword and term recall only).
        """
        from forethought.plugins import make_embedder
        from forethought.store.sqlite import SQLiteStore

        chosen = make_embedder(embedder) if isinstance(embedder, str) else embedder
        store = SQLiteStore(path, dim=chosen.dim if chosen is not None else 384)
        return cls(store, chosen, actor=actor, model=model)

    def close(self) -> None:
        self.store.close()

    def acting_as(self, actor: str) -> Forethought:
        """This memory (same store, embedder and model) writing `actor` into audit events: the
        server uses one per API key so the audit trail says which key made each change."""
        clone = copy.copy(self)
        clone.actor = actor
        return clone

    def stats(self) -> dict[str, Any]:
        """What the store reports about itself: backend, schema, counts (never content)."""
        return self.store.stats()

    def __enter__(self) -> Forethought:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- spaces ----------------------------------------------------------------------------
    def space(self, ref: SpaceRef, *, create: bool = True) -> Space:
        """The space named by `ref`: a SpaceKey, or a name meaning (default, generic, name)."""
        try:
            key = ref if isinstance(ref, SpaceKey) else SpaceKey(subject_id=ref)
        except ValidationError as exc:
            raise InvalidInput(validation_reason(exc)) from None
        return self.store.spaces.resolve(key, create=create)

    def list_spaces(self, workspace: str, *, subject_type: str | None = None) -> list[Space]:
        """The spaces of one workspace (of one subject type, if given), oldest first."""
        found = self.store.spaces.list(limits.check_name(workspace, field="workspace"))
        return [s for s in found if subject_type is None or s.key.subject_type == subject_type]

    def erase_space(self, ref: SpaceRef) -> int:
        """Remove everything the space holds; returns the number of records erased."""
        return self.store.spaces.erase(self.space(ref, create=False).id, actor=self.actor)

    # -- api keys --------------------------------------------------------------------------
    def create_api_key(self, workspace: str, *, name: str = "default") -> tuple[ApiKey, str]:
        """A new key for `workspace`: the record, and the full key (shown once, never stored)."""
        from forethought.domain.keys import hash_key, new_key

        clean_workspace = limits.check_name(workspace, field="workspace")
        key_id, full = new_key()
        key = ApiKey(
            id=key_id, workspace=clean_workspace, name=limits.check_name(name, field="name"), created_at=utcnow()
        )
        self.store.keys.add(key, hash_key(full))
        return key, full

    def authenticate(self, full_key: str) -> ApiKey | None:
        """The active key matching `full_key`, or None (unknown, malformed or revoked)."""
        from forethought.domain.keys import hash_key

        if not isinstance(full_key, str) or not full_key.startswith("ft_") or len(full_key) > 200:
            return None
        key = self.store.keys.by_hash(hash_key(full_key))
        return key if key is not None and key.active else None

    def revoke_api_key(self, key_id: str, *, workspace: str | None = None) -> ApiKey:
        """Revoke a key (idempotent). With `workspace`, only a key of that workspace: another's is
        NotFound, exactly like an unknown id (the server passes the caller's workspace)."""
        if workspace is not None and all(k.id != key_id for k in self.store.keys.list(workspace)):
            raise NotFound(f"no API key {key_id!r}")
        return self.store.keys.revoke(key_id, utcnow())

    def list_api_keys(self, workspace: str | None = None) -> list[ApiKey]:
        return self.store.keys.list(workspace)

    # -- writes ----------------------------------------------------------------------------
    def retain(
        self,
        space: SpaceRef,
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
        """Store one memory. With `external_id`, retrying the same retain returns the first record
        (`created=False`) instead of making a second; reusing the id for other content is a Conflict.
        `check` attaches deterministic patterns that `check` enforces on drafts (validated here)."""
        item = RetainItem(text, kind, tags, occurred_at, external_id, attributes, context)
        draft, when = make_draft(
            item,
            evidence=evidence,
            confidence=confidence,
            provenance=Provenance(asserted_by=asserted_by, source=source),
        )
        if check is not None:
            draft = replace(draft, check=limits.check_patterns(check))
        if status not in (Status.ACTIVE, Status.CANDIDATE):
            raise InvalidInput("a new record is either active or a candidate")
        return self._retain_drafts(self.space(space), [(draft, when)], status)[0]

    def retain_many(
        self,
        space: SpaceRef,
        items: Iterable[RetainItem],
        *,
        source: str = "api",
        batch_size: int = 64,
        progress: Callable[[int], None] | None = None,
    ) -> list[Retained]:
        """Store many memories, embedding them in batches. Every item is validated before anything
        is written; each batch is one transaction."""
        provenance = Provenance(source=source)
        drafts = [make_draft(item, provenance=provenance) for item in items]
        target = self.space(space)
        results: list[Retained] = []
        for start in range(0, len(drafts), batch_size):
            results.extend(self._retain_drafts(target, drafts[start : start + batch_size], Status.ACTIVE))
            if progress is not None:
                progress(len(results))
        return results

    def _retain_drafts(self, space: Space, drafts: list[tuple[Draft, datetime]], status: Status) -> list[Retained]:
        return retain_drafts(self.store, self.embedder, space, drafts, status, actor=self.actor)

    def _index(self, records: Sequence[Record]) -> list[NewRecord]:
        return index_records(records, self.embedder)

    def drain_outbox(self, *, limit: int = 256) -> OutboxReport:
        """Do owed work (embeddings the embedder could not make at retain time), at most `limit`
        jobs. Failures are retried later with exponential backoff; nothing is ever dropped."""
        return drain(self.store, self.embedder, limit=limit)

    def supersede(
        self,
        space: SpaceRef,
        old_id: str,
        text: str,
        *,
        kind: str | None = None,
        tags: Sequence[str] | None = None,
        occurred_at: TimeRef = None,
        reason: str | None = None,
        attributes: dict[str, Any] | None = None,
    ) -> Record:
        """Replace an active record with a new fact. The old one becomes superseded, valid until the
        new one's `occurred_at`."""
        target = self.space(space, create=False)
        old = self.store.records.get(target.id, old_id)
        item = RetainItem(text, kind or old.kind, old.tags if tags is None else tags, occurred_at, None, attributes)
        draft, when = make_draft(item)
        if when < old.occurred_at:
            raise InvalidInput("occurred_at: a superseding record cannot predate the record it replaces")
        new = new_record(target.id, draft, status=Status.ACTIVE, occurred_at=when, now=utcnow(), supersedes=(old.id,))
        after, event = transition(
            old,
            Status.SUPERSEDED,
            actor=self.actor,
            at=new.recorded_at,
            reason=_reason(reason),
            valid_to=when,
            superseded_by=new.id,
        )
        self.store.records.apply(
            ChangeSet(
                target.id,
                inserts=self._index([new]),
                transitions=[(old, after)],
                events=[created_event(new, self.actor), event],
            )
        )
        return new

    def edit(
        self,
        space: SpaceRef,
        record_id: str,
        text: str,
        *,
        tags: Sequence[str] | None = None,
        reason: str | None = None,
    ) -> Record:
        """A corrected version of a record (same lineage, same valid time). The old version of an
        active record becomes superseded; an edited candidate is rejected in favour of the edit."""
        target = self.space(space, create=False)
        old = self.store.records.get(target.id, record_id)
        item = RetainItem(text, old.kind, old.tags if tags is None else tags, old.occurred_at)
        draft, _ = make_draft(item, evidence=old.evidence, confidence=old.confidence, provenance=old.provenance)
        new = next_version(old, draft, status=old.status, now=utcnow())
        if old.status is Status.ACTIVE:
            after, event = transition(
                old,
                Status.SUPERSEDED,
                actor=self.actor,
                at=new.recorded_at,
                reason=_reason(reason) or "edited",
                valid_to=old.occurred_at,
                superseded_by=new.id,
            )
        else:
            after, event = transition(
                old,
                Status.REJECTED,
                actor=self.actor,
                at=new.recorded_at,
                reason=_reason(reason) or "replaced by an edited version",
            )
        self.store.records.apply(
            ChangeSet(
                target.id,
                inserts=self._index([new]),
                transitions=[(old, after)],
                events=[created_event(new, self.actor), event],
            )
        )
        return new

    def approve(
        self,
        space: SpaceRef,
        record_id: str,
        *,
        reason: str | None = None,
        conflict: Literal["supersede", "keep_both"] | None = None,
        supersedes: str | None = None,
    ) -> Record:
        """Approve a candidate. A flagged one must be edited first; one that supersedes a record
        retires it; one that conflicts with a record needs `conflict` to say which way. With
        `supersedes` (an active record's id or handle) the reviewer names the record it replaces."""
        from forethought.pipeline.review import approve

        return approve(self, space, record_id, conflict=conflict, reason=_reason(reason), supersedes=supersedes)

    def approve_all(self, space: SpaceRef, *, high_confidence: bool = False) -> list[Record]:
        """Approve every unflagged, conflict-free candidate (with `high_confidence`: ≥ 0.8 and new)."""
        from forethought.pipeline.review import approve_all

        return approve_all(self, space, high_confidence=high_confidence)

    def reject(self, space: SpaceRef, record_id: str, *, reason: str | None = None) -> Record:
        return self._move(space, record_id, Status.REJECTED, reason)

    def retract(self, space: SpaceRef, record_id: str, *, why: str) -> Record:
        """Withdraw an active record that was wrong; it stays in history, never in recall."""
        return self._move(space, record_id, Status.RETRACTED, limits.clean_text(why, field="why", limit=1000))

    def _move(self, space: SpaceRef, record_id: str, status: Status, reason: str | None) -> Record:
        target = self.space(space, create=False)
        old = self.store.records.get(target.id, record_id)
        after, event = transition(old, status, actor=self.actor, at=utcnow(), reason=_reason(reason))
        self.store.records.apply(ChangeSet(target.id, transitions=[(old, after)], events=[event]))
        return after

    def forget(self, space: SpaceRef, record_id: str) -> int:
        """Erase a record and every version of it, from every table and index. Returns versions erased."""
        target = self.space(space, create=False)
        record = self.store.records.get(target.id, record_id)
        return self.store.records.forget(target.id, record.lineage_id, actor=self.actor)

    # -- reads -----------------------------------------------------------------------------
    def get(self, space: SpaceRef, record_id: str) -> Record:
        return self.store.records.get(self.space(space, create=False).id, record_id)

    def recall(
        self,
        space: SpaceRef,
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
        """The records most relevant to `query`, current ones only unless `statuses` or `as_of`
        say otherwise. `as_of` travels in valid time: what was true at that moment."""
        text = limits.check_query(query)
        limits.check_k(k)
        when = None if as_of is None else parse_time(as_of, field="as_of")
        if statuses is None:
            statuses = (Status.ACTIVE, Status.SUPERSEDED) if when is not None else (Status.ACTIVE,)
        flt = RecordFilter(
            statuses=tuple(Status(s) for s in statuses),
            kinds=tuple(limits.check_kind(kind) for kind in kinds),
            tags=limits.check_tags(tags),
            occurred_after=None if after is None else parse_time(after, field="after"),
            occurred_before=None if before is None else parse_time(before, field="before"),
            as_of=when,
        )
        if token_budget is not None and token_budget < 1:
            raise InvalidInput("token_budget: must be at least 1")
        try:
            target = self.space(space, create=False)
        except LookupError:
            return RecallResult(query=text, strategy=preset(strategy).name, hits=[], tokens=0)
        request = RecallRequest(target.id, text, k, flt, preset(strategy), token_budget)
        return run_recall(self.store, self.embedder, request)

    def history(self, space: SpaceRef, record_id: str) -> History:
        """The record's versions and supersession chain (both directions), oldest first."""
        target = self.space(space, create=False)
        start = self.store.records.get(target.id, record_id)
        seen: dict[str, Record] = {}
        frontier = [start]
        while frontier and len(seen) < 1000:
            record = frontier.pop()
            if record.id in seen:
                continue
            seen[record.id] = record
            linked = [*self.store.records.lineage(target.id, record.lineage_id)]
            ids = [*record.supersedes, *([record.superseded_by] if record.superseded_by else [])]
            linked.extend(self.store.records.get_many(target.id, ids))
            frontier.extend(r for r in linked if r.id not in seen)
        chain = sorted(seen.values(), key=lambda r: (r.recorded_at, r.id))
        events: list[AuditEvent] = []
        for record in chain:
            events.extend(self.store.audit.events(target.id, record_id=record.id, limit=1000))
        events.sort(key=lambda e: (e.at, e.id), reverse=True)
        return History(record=start, chain=chain, events=events)

    def audit_events(
        self, space: SpaceRef, *, record_id: str | None = None, limit: int = 100, before_seq: int | None = None
    ) -> list[AuditEvent]:
        """A space's audit events, newest first; `before_seq` continues from an event's `seq`."""
        try:
            target = self.space(space, create=False)
        except LookupError:
            return []
        return self.store.audit.events(target.id, record_id=record_id, limit=limit, before_seq=before_seq)

    def list_records(
        self,
        space: SpaceRef,
        *,
        statuses: Sequence[Status] = (Status.ACTIVE,),
        kinds: Sequence[str] = (),
        tags: Sequence[str] = (),
        as_of: datetime | str | None = None,
        limit: int = 100,
        after_id: str | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records by when they were recorded (oldest first unless `newest_first`), filtered in the
        store: statuses, kinds, every one of `tags`, and valid at `as_of`."""
        try:
            target = self.space(space, create=False)
        except LookupError:
            return []
        when = None if as_of is None else parse_time(as_of, field="as_of")
        flt = RecordFilter(statuses=tuple(statuses), kinds=tuple(kinds), tags=limits.check_tags(tags), as_of=when)
        return self.store.records.list(target.id, flt, limit=limit, after_id=after_id, newest_first=newest_first)

    # -- transfer --------------------------------------------------------------------------
    def export_jsonl(self, space: SpaceRef, path: str | Path) -> int:
        """Write every record (all statuses and versions) and audit event of a space to JSONL."""
        from forethought.transfer import export_space

        return export_space(self, self.space(space, create=False), Path(path))

    def import_jsonl(
        self, space: SpaceRef, path: str | Path, *, progress: Callable[[int, int], None] | None = None
    ) -> int:
        """Read a file written by `export_jsonl` into a space; returns records imported. The whole
        file is validated before anything is written; records already present are skipped."""
        from forethought.transfer import import_space, read_export

        export = read_export(Path(path))
        return import_space(self, self.space(space), export, progress=progress)


def _reason(reason: str | None) -> str | None:
    return None if reason is None else limits.clean_text(reason, field="reason", limit=1000)
