"""Organisation rules: one rule set per workspace that every project inherits.

The set is the project-app space `ORG` of the workspace (a name no project may take), filled and
reviewed like any project (`project org import`, the inbox, supersession). A project takes an
exception explicitly: `override` writes an audited mark on the organisation rule naming the
project and the reason; `restore` lifts it. Briefs and checks of a project use the merged set —
its own rules and the organisation's not overridden there — and say where each rule came from.

A project's own rules come first when a brief has more applicable rules than its limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from forethought.domain import Action, Record, Status
from forethought.errors import InvalidInput
from forethought.facade import Forethought, Scope
from forethought.pipeline.reports import Brief, BriefItem, CheckReport, FilteredItem
from forethought.prompts import memory_block
from forethought.recall.packing import estimate_tokens

__all__ = [
    "ORG",
    "Override",
    "merged_brief",
    "merged_check",
    "org_scope",
    "overrides",
    "refuse_reserved",
    "set_override",
    "workspace_org",
]

ORG = "_organisation"
ORG_NOTE = "Lines marked ORG are organisation rules every project of the workspace inherits."
Source = Literal["project", "organisation"]


@dataclass(frozen=True)
class Override:
    record: Record  # the organisation rule
    reason: str
    by: str
    active: bool  # False once restored


def org_scope(memory: Forethought, scope: Scope) -> Scope:
    """The organisation rule set of `scope`'s workspace."""
    return workspace_org(memory, scope.key.workspace)


def workspace_org(memory: Forethought, workspace: str) -> Scope:
    """The organisation rule set of `workspace` (nothing is created until a write)."""
    return memory.scope("project", ORG, workspace=workspace)


def refuse_reserved(name: str) -> str:
    if name == ORG:
        raise InvalidInput(f"project: {ORG!r} is the organisation rule set, not a project name")
    return name


def set_override(
    memory: Forethought, scope: Scope, org_record_id: str, *, reason: str, restore: bool = False
) -> Override:
    """Override (or restore) an organisation rule in the project `scope`, audited on the rule.
    Restoring a rule the project does not override is refused (InvalidInput)."""
    if scope.subject == ORG:
        raise InvalidInput("an override names a project, not the organisation rule set")
    if not reason.strip():
        raise InvalidInput("why: say why the project overrides the organisation rule (or why it is restored)")
    org = org_scope(memory, scope)
    record = memory.get(org, org_record_id)
    if not restore and record.status is not Status.ACTIVE:
        raise InvalidInput(
            f"{record.handle} is {record.status.value}, not an organisation rule in force: nothing to override"
        )
    if restore and record.id not in overrides(memory, scope):
        raise InvalidInput(f"{record.handle} is not overridden in project {scope.subject!r}: nothing to restore")
    event = memory.note_review(org, record.id, "restored" if restore else "overridden", reason=reason,
                               subject=scope.subject)  # fmt: skip
    return Override(record, event.reason or "", event.actor, active=not restore)


def overrides(memory: Forethought, scope: Scope) -> dict[str, Override]:
    """The organisation rules `scope`'s project overrides now (by record id), with why and by whom."""
    org = org_scope(memory, scope)
    if not memory.list_records(org, limit=1):
        return {}
    latest: dict[str, Override] = {}
    for event in memory.audit_events(org, limit=5000):  # newest first: the first mark per rule wins
        if event.action is not Action.REVIEWED or event.details.get("subject") != scope.subject:
            continue
        if event.record_id is None or event.record_id in latest:
            continue
        verdict = event.details.get("verdict")
        if verdict in ("overridden", "restored"):
            latest[event.record_id] = Override(memory.get(org, event.record_id), event.reason or "", event.actor,
                                               verdict == "overridden")  # fmt: skip
    return {rid: o for rid, o in latest.items() if o.active}


def merged_brief(
    memory: Forethought,
    scope: Scope,
    task: str,
    *,
    limit: int = 5,
    file_paths: Sequence[str] = (),
    max_excerpts: int = 3,
) -> tuple[Brief, dict[str, Source]]:
    """The project's brief with the organisation's applicable rules merged in (not those the
    project overrides), and where each used rule came from (record id → source)."""
    own = memory.brief(scope, task, limit=limit, file_paths=file_paths, max_excerpts=max_excerpts)
    org = org_scope(memory, scope)
    if scope.app.name != "project" or scope.subject == ORG or not memory.list_records(org, limit=1):
        return own, {i.record.id: "project" for i in own.used}
    inherited = memory.brief(org, task, limit=limit, file_paths=file_paths, max_excerpts=0)
    skipped = overrides(memory, scope) if inherited.used else {}  # the audit trail is read only when it matters
    used = list(own.used)
    sources: dict[str, Source] = {i.record.id: "project" for i in used}
    filtered = list(own.filtered)
    for item in inherited.used:
        if item.record.id in skipped:
            why = skipped[item.record.id].reason
            filtered.append(_filtered(item, f"organisation rule overridden in this project: {why}"))
        elif len(used) < limit:
            used.append(BriefItem(record=item.record, reason=f"organisation rule: {item.reason}", score=item.score))
            sources[item.record.id] = "organisation"
        else:
            filtered.append(_filtered(item, f"organisation rule that applies ({item.reason}) but over the limit"))
    block = _block(own, used, sources)
    update = {
        "used": used,
        "filtered": filtered,
        "block": block,
        "block_tokens": estimate_tokens(block) if block else 0,
        "all_memory_tokens": own.all_memory_tokens + inherited.all_memory_tokens,
    }
    if used and own.note and not own.used:
        update["note"] = None
    return own.model_copy(update=update), sources


def merged_check(memory: Forethought, scope: Scope, draft: str, *, path: str | None = None,
                 diff: bool = False) -> tuple[CheckReport, dict[str, Source]]:  # fmt: skip
    """The draft checked against the project's rules and the organisation's it does not override."""
    own = memory.check(scope, draft, path=path, diff=diff)
    sources: dict[str, Source] = {v.record_id: "project" for v in own.violations}
    org = org_scope(memory, scope)
    if scope.app.name != "project" or scope.subject == ORG or not memory.list_records(org, limit=1):
        return own, sources
    inherited = memory.check(org, draft, path=path, diff=diff)
    skipped = overrides(memory, scope) if inherited.violations else {}
    kept = [v for v in inherited.violations if v.record_id not in skipped]
    sources.update({v.record_id: "organisation" for v in kept})
    violations = [*own.violations, *kept]
    return own.model_copy(update={
        "violations": violations,
        "clean": not any(v.severity == "error" for v in violations),
        "records_checked": own.records_checked + inherited.records_checked,
        "skipped_patterns": [*own.skipped_patterns, *inherited.skipped_patterns],
    }), sources  # fmt: skip


def _filtered(item: BriefItem, reason: str) -> FilteredItem:
    return FilteredItem(record=item.record, reason=reason)


def _block(own: Brief, used: list[BriefItem], sources: dict[str, Source]) -> str:
    """The merged brief's memory block: organisation rules marked ORG, the excerpts as they were."""
    if not any(s == "organisation" for s in sources.values()):
        return own.block
    excerpts = [line for line in own.block.split("\n") if line.startswith("(UNREVIEWED excerpt")]
    lines = [memory_block.PREAMBLE, ORG_NOTE, *([memory_block.EXCERPT_NOTE] if excerpts else []), memory_block.OPEN]
    for item in used:
        org = sources.get(item.record.id) == "organisation"
        lines.append(memory_block.record_line(item.record) + (" (ORG)" if org else ""))
    return "\n".join([*lines, *excerpts, memory_block.CLOSE])
