"""What a draft is checked against: the current records recalled for it, and which of them apply.

`recall_for` recalls for the draft's text (its identifiers first, see `query_for`) and, when the
app records failed attempts, once more for those alone, so a failed fix is checked for even when
other records rank higher; the heuristic applicability judge (or a failed action) says which of
the records apply. `failed_action` reads the action a record says failed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from forethought.apps.base import Failed
from forethought.domain import Record
from forethought.memory import Memory, Scope
from forethought.pipeline.applies import heuristic_applicability
from forethought.pipeline.brief import query_for
from forethought.recall.config import RecallConfig

__all__ = ["RECALL_K", "Recalled", "failed_action", "recall_for"]

RECALL_K = 20
Recalled = tuple[list[Record], set[str]]  # the records a draft is checked against, and the applicable ids
_FAILED_VALUES = frozenset({"failed", "failure", "fail", "did_not_work", "not_fixed", "unsuccessful", "no_effect"})
_TRIED_HEAD = re.compile(r"^(?:the customer|they|we|the user|i|he|she)\s+(?:tried|attempted)\s+", re.I)
_FAILED_TAIL = re.compile(r"\s+(?:did not|didn'?t|does not|doesn'?t|failed|was tried|had no effect)\b|[;:]", re.I)


def failed_action(record: Record, failed_kinds: Mapping[str, Failed]) -> str | None:
    """The action a record says failed (its `action`/`approach` attribute, or its statement with
    the failure wording cut off), or None when the record is not about a failed action.
    `failed_kinds` are the app's kinds that record a failed attempt (`App.failed_kinds`)."""
    attrs = record.attributes
    said = {str(attrs.get(k, "")).lower().replace(" ", "_") for k in ("outcome", "result", "status")}
    when = failed_kinds.get(record.kind)
    failed = when is Failed.ALWAYS or (
        when is Failed.WHEN_ATTRIBUTES_SAY
        and (bool(said & _FAILED_VALUES) or any(attrs.get(k) is False for k in ("succeeded", "success", "worked")))
    )
    if not failed:
        return None
    named = attrs.get("action") or attrs.get("approach")
    if isinstance(named, str) and named.strip():
        return named.strip()
    action = _FAILED_TAIL.split(_TRIED_HEAD.sub("", record.statement), maxsplit=1)[0].strip(" .")
    return action or record.statement


def recall_for(
    memory: Memory, scope: Scope, draft: str, *, strategy: str | RecallConfig = "balanced",
    also: Sequence[Record] = (), failed_apart: bool = True,
) -> Recalled:  # fmt: skip
    """Current records relevant to the draft (with `also`, records recalled for it elsewhere), and
    the ids the heuristic judge finds applicable to the draft. Without `failed_apart` the failed
    attempts are not recalled for once more (the caller's `also` holds those recalled apart)."""
    app = scope.app
    if not draft.strip() or not memory.list_records(scope, limit=1):
        return [], set()
    query = query_for(draft)
    found: dict[str, Record] = {}
    # Failed actions are looked for even when other records rank higher.
    for kinds in ((), tuple(app.failed_kinds)) if app.failed_kinds and failed_apart else ((),):
        for hit in memory.recall(scope, query, k=RECALL_K, kinds=kinds, strategy=strategy).hits:
            found.setdefault(hit.record.id, hit.record)
    for record in also:
        found.setdefault(record.id, record)
    records = list(found.values())
    relevant = {
        r.id
        for r in records
        if failed_action(r, app.failed_kinds) or heuristic_applicability(query, r, areas=app.areas).applies
    }
    return records, relevant
