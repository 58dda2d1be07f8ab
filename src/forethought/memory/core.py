"""`Memory`: governed records over one store and one embedder — what every pipeline stage runs on.

Every method that touches a subject takes a `Scope` (see `memory.scope`) as its first argument;
writes create the scope's space on first use, reads of a space that was never written return
nothing, and acting on a stored record of a space that does not exist is NotFound.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from forethought.apps.base import App
from forethought.domain import (
    AuditEvent,
    CheckPatterns,
    Evidence,
    Provenance,
    Record,
    Role,
    Space,
    Status,
    limits,
    transition,
)
from forethought.domain.limits import check_sequence
from forethought.domain.times import parse_time, utcnow
from forethought.embed.base import Embedder
from forethought.errors import InvalidInput
from forethought.memory.changes import replacement
from forethought.memory.history import History, record_history
from forethought.memory.keys import Keys
from forethought.memory.outbox import OutboxReport, drain
from forethought.memory.recall_filter import recall_filter
from forethought.memory.scope import Scope, resolve_scope
from forethought.memory.transfer import export_space, import_space, read_export
from forethought.memory.writing import (
    Draft,
    Retained,
    RetainItem,
    TimeRef,
    gated,
    index_records,
    make_draft,
    new_record,
    next_version,
    refuse_instructions,
    retain_drafts,
)
from forethought.plugins import registry
from forethought.recall import RecallConfig, RecallRequest, RecallResult, preset
from forethought.recall.base import BuiltinEngine, RecallEngine, ReconcileReport, SyncReport
from forethought.store.base import ChangeSet, NewRecord, RecordFilter, Store

__all__ = ["Memory"]

FORGOTTEN = "[forgotten]"
MIN_REDACTED_CHARS = 8  # shorter texts ("ok", "yes") would cut words out of unrelated turns


class Memory:
    """Records, recall, writing, the outbox and export/import over one store."""

    def __init__(
        self, store: Store, embedder: Embedder | None, *, actor: str = "api", engine: RecallEngine | None = None
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.actor = actor
        self.engine = engine or BuiltinEngine()  # who answers recall (an outside index syncs from here)
        self.engine.attach(store)
        self.keys = Keys(store)
        if embedder is not None:
            store.check_embedder(embedder.name, embedder.dim)
        migrate_apps(store)

    def acting_as(self, actor: str) -> Memory:
        """This memory (same store and embedder) writing `actor` into audit events."""
        clone = copy.copy(self)
        clone.actor = actor
        return clone

    # -- scopes ----------------------------------------------------------------------------
    def scope(self, app: App | str, subject: str, *, workspace: str = "default", field: str = "subject") -> Scope:
        """The Scope of `subject` under `app` in `workspace` (nothing is created until a write)."""
        return resolve_scope(self.store.spaces.resolve, workspace, app, subject, field=field)

    def own(self, scope: Scope) -> Scope:
        """`scope` itself, checked: a Scope made by this memory (InvalidInput otherwise)."""
        if not isinstance(scope, Scope):
            raise InvalidInput("name the subject with a Scope: memory.scope(app, subject)")
        if not scope.bound_to(self.store.spaces.resolve):
            raise InvalidInput("this Scope was made by another memory (another store)")
        return scope

    def space_of(self, scope: Scope, *, create: bool = True) -> Space | None:
        """The space behind `scope`: created on first use, or None when absent and not `create`."""
        own = self.own(scope)
        return own.space() if create else own.existing()

    def _stored(self, scope: Scope) -> Space:
        return self.own(scope).require()

    def list_spaces(self, workspace: str, *, subject_type: str | None = None) -> list[Space]:
        """The spaces of one workspace (of one subject type, if given), oldest first."""
        found = self.store.spaces.list(limits.check_name(workspace, field="workspace"))
        return [s for s in found if subject_type is None or s.key.subject_type == subject_type]

    def erase_space(self, scope: Scope) -> int:
        """Remove everything the space holds; returns the number of records erased."""
        removed = self.store.spaces.erase(self._stored(scope).id, actor=self.actor)
        scope.forget_space()
        return removed

    # -- writes ----------------------------------------------------------------------------
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
        """Store one memory. With `external_id`, retrying the same retain returns the first record
        (`created=False`) instead of making a second; reusing the id for other content is a Conflict.
        `check` attaches deterministic patterns that `check` enforces on drafts (validated here)."""
        self.own(scope)
        item = RetainItem(text, kind, tags, occurred_at, external_id, attributes, context)
        draft, when = make_draft(
            item,
            evidence=evidence,
            confidence=confidence,
            provenance=Provenance(asserted_by=asserted_by, source=source),
        )
        draft = _with_patterns(scope, draft, check)
        if status not in (Status.ACTIVE, Status.CANDIDATE):
            raise InvalidInput("a new record is either active or a candidate")
        return self._retain_drafts(scope.space(), [(draft, when)], status)[0]

    def retain_many(
        self,
        scope: Scope,
        items: Iterable[RetainItem],
        *,
        source: str = "api",
        batch_size: int = 64,
        progress: Callable[[int], None] | None = None,
    ) -> list[Retained]:
        """Store many memories, embedding them in batches. Every item is validated before anything
        is written; each batch is one transaction."""
        self.own(scope)
        provenance = Provenance(source=source)
        drafts = [
            (_with_patterns(scope, d, None), when) for d, when in (make_draft(i, provenance=provenance) for i in items)
        ]
        target = scope.space()
        results: list[Retained] = []
        for start in range(0, len(drafts), batch_size):
            results.extend(self._retain_drafts(target, drafts[start : start + batch_size], Status.ACTIVE))
            if progress is not None:
                progress(len(results))
        return results

    def _retain_drafts(self, space: Space, drafts: list[tuple[Draft, datetime]], status: Status) -> list[Retained]:
        return retain_drafts(self.store, self.embedder, space, drafts, status, actor=self.actor)

    def index(self, records: Sequence[Record]) -> list[NewRecord]:
        """Records with what the search indexes need (embedding, terms, search text)."""
        return index_records(records, self.embedder)

    def drain_outbox(self, *, limit: int = 256) -> OutboxReport:
        """Do up to `limit` owed embeddings (not made at retain time); failures retried, never dropped."""
        return drain(self.store, self.embedder, limit=limit)

    def sync_index(self, *, limit: int = 256) -> SyncReport:
        """Send up to `limit` queued changes to the engine's outside index (failures retried later)."""
        return self.engine.sync(self.store, limit=limit)

    def reconcile_index(self) -> ReconcileReport:  # compare every record with the outside index, fix drift
        return self.engine.reconcile(self.store)

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
        """Replace an active record with a new fact. The old one becomes superseded, valid until the
        new one's `occurred_at`."""
        target = self._stored(scope)
        old = self.store.records.get(target.id, old_id)
        item = RetainItem(text, kind or old.kind, old.tags if tags is None else tags, occurred_at, None, attributes)
        draft, when = make_draft(item)
        if when < old.occurred_at:
            raise InvalidInput("occurred_at: a superseding record cannot predate the record it replaces")
        new = new_record(target.id, draft, status=Status.ACTIVE, occurred_at=when, now=utcnow(), supersedes=(old.id,))
        refuse_instructions(new)
        self.store.records.apply(
            replacement(
                old,
                new,
                Status.SUPERSEDED,
                actor=self.actor,
                embedder=self.embedder,
                reason=clean_reason(reason),
                valid_to=when,
            )
        )
        return new

    def edit(
        self, scope: Scope, record_id: str, text: str, *, tags: Sequence[str] | None = None, reason: str | None = None
    ) -> Record:
        """A corrected version of a record (same lineage, same valid time). The old version of an
        active record becomes superseded; an edited candidate is rejected in favour of the edit."""
        target = self._stored(scope)
        old = self.store.records.get(target.id, record_id)
        item = RetainItem(text, old.kind, old.tags if tags is None else tags, old.occurred_at)
        draft, _ = make_draft(item, evidence=old.evidence, confidence=old.confidence, provenance=old.provenance)
        new = next_version(old, draft, status=old.status, now=utcnow())
        active = old.status is Status.ACTIVE
        if active:
            refuse_instructions(new)
        else:
            new = gated(new)  # an edited candidate that still reads as instructions stays flagged
        default = "edited" if active else "replaced by an edited version"
        self.store.records.apply(
            replacement(
                old,
                new,
                Status.SUPERSEDED if active else Status.REJECTED,
                actor=self.actor,
                embedder=self.embedder,
                reason=clean_reason(reason) or default,
                valid_to=old.occurred_at,
            )
        )
        return new

    def reject(self, scope: Scope, record_id: str, *, reason: str | None = None) -> Record:
        return self._move(scope, record_id, Status.REJECTED, clean_reason(reason))

    def retract(self, scope: Scope, record_id: str, *, why: str) -> Record:
        """Withdraw an active record that was wrong; it stays in history, never in recall."""
        return self._move(scope, record_id, Status.RETRACTED, limits.clean_text(why, field="why", limit=1000))

    def _move(self, scope: Scope, record_id: str, status: Status, reason: str | None) -> Record:
        target = self._stored(scope)
        old = self.store.records.get(target.id, record_id)
        after, event = transition(old, status, actor=self.actor, at=utcnow(), reason=reason)
        self.store.records.apply(ChangeSet(target.id, transitions=[(old, after)], events=[event]))
        return after

    def forget(self, scope: Scope, record_id: str, *, redact_sources: bool = False) -> int:
        """Erase a record and every version of it, from every table and index. Returns versions erased.
        With `redact_sources`, its words are also cut out of the sessions it came from and of any
        turn or title that repeats them (an agent's reply quoting it): every version's statement,
        context and evidence quote becomes `FORGOTTEN` there."""
        target = self._stored(scope)
        record = self.store.records.get(target.id, record_id)
        versions = self.store.records.lineage(target.id, record.lineage_id)
        removed = self.store.records.forget(target.id, record.lineage_id, actor=self.actor)
        if redact_sources:
            phrases = [
                text
                for v in versions
                for text in (v.statement, v.context or "", *(e.quote for e in v.evidence))
                if len(text.strip()) >= MIN_REDACTED_CHARS
            ]
            self.store.sessions.redact(target.id, phrases, FORGOTTEN, actor=self.actor)
        return removed

    def delete_session(self, scope: Scope, session_id: str) -> int:
        """Erase one captured session with its turns, keyword entries and traces; returns the
        turns erased. Records extracted from it stay (forget them on their own)."""
        target = self._stored(scope)
        return self.store.sessions.delete(target.id, session_id, actor=self.actor)

    # -- reads -----------------------------------------------------------------------------
    def get(self, scope: Scope, record_id: str) -> Record:
        return self.store.records.get(self._stored(scope).id, record_id)

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
        """The records most relevant to `query`, current ones only unless `statuses` or `as_of`
        say otherwise. `as_of` travels in valid time: what was true at that moment."""
        self.own(scope)
        text = limits.check_query(query)
        limits.check_k(k)
        flt = recall_filter(kinds=kinds, tags=tags, statuses=statuses, as_of=as_of, after=after, before=before)
        if token_budget is not None and token_budget < 1:
            raise InvalidInput("token_budget: must be at least 1")
        target = scope.existing()
        if target is None:
            return RecallResult(query=text, strategy=preset(strategy).name, hits=[], tokens=0, engine=self.engine.name)
        request = RecallRequest(target.id, text, k, flt, preset(strategy), token_budget)
        return self.engine.recall(self.store, self.embedder, request)

    def history(self, scope: Scope, record_id: str) -> History:
        """The record's versions and supersession chain (both directions), oldest first."""
        return record_history(self.store, self._stored(scope).id, record_id)

    def audit_events(
        self, scope: Scope, *, record_id: str | None = None, limit: int = 100, before_seq: int | None = None
    ) -> list[AuditEvent]:
        """A space's audit events, newest first; `before_seq` continues from an event's `seq`."""
        if before_seq is not None:
            check_sequence(before_seq, field="before")
        target = self.own(scope).existing()
        if target is None:
            return []
        return self.store.audit.events(target.id, record_id=record_id, limit=limit, before_seq=before_seq)

    def list_records(
        self,
        scope: Scope,
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
        target = self.own(scope).existing()
        if target is None:
            return []
        when = None if as_of is None else parse_time(as_of, field="as_of")
        flt = RecordFilter(statuses=tuple(statuses), kinds=tuple(kinds), tags=limits.check_tags(tags), as_of=when)
        return self.store.records.list(target.id, flt, limit=limit, after_id=after_id, newest_first=newest_first)

    # -- transfer --------------------------------------------------------------------------
    def export_jsonl(self, scope: Scope, path: str | Path) -> int:
        """Write every record (all statuses and versions) and audit event of a space to JSONL."""
        return export_space(self.store, self._stored(scope), Path(path))

    def import_jsonl(
        self, scope: Scope, path: str | Path, *, progress: Callable[[int, int], None] | None = None
    ) -> int:
        """Read a file written by `export_jsonl` into a space; returns records imported. The whole
        file is validated before anything is written; records already present are skipped."""
        self.own(scope)
        export = read_export(Path(path))
        return import_space(self.store, self.embedder, scope.space(), export, actor=self.actor, progress=progress)


def migrate_apps(store: Store) -> None:
    """Bring every installed app's own tables up to date (apps without tables cost nothing)."""
    plugins = registry()
    for app in map(plugins.app, plugins.names("app")):
        if app.migrations:
            store.app_tables.migrate(app.name, app.migrations)


def clean_reason(reason: str | None) -> str | None:
    """A reviewer's reason, checked like any text a person writes (None stays None)."""
    return None if reason is None else limits.clean_text(reason, field="reason", limit=1000)


def _with_patterns(scope: Scope, draft: Draft, check: CheckPatterns | None) -> Draft:
    """The draft with `check` (validated), or with the patterns the app reads from the rule's own
    words when none is given (`App.check_patterns`), or unchanged when the app derives none."""
    patterns = check if check is not None else scope.app.check_patterns(draft.kind, draft.statement)
    return draft if patterns is None else replace(draft, check=limits.check_patterns(patterns))
