"""How a record becomes a Hindsight document, and a recall filter a tag filter.

A document holds the record's statement (and its context, which recall searches but never shows),
its `occurred_at`, and tags: `space:<id>`, `kind:<kind>`, `area:<area>` (when the app names one),
`status:<status>` and `tag:<tag>` for each of the record's own tags. Supersession and retraction
change only the status tag; text and time never change (an edit is a new record).
"""

from __future__ import annotations

import hashlib

from forethought.domain import Record, Status
from forethought.engines.hindsight.base import Document, TagGroup
from forethought.store.base import RecordFilter
from forethought.store.scrub import scrub_text

__all__ = ["INDEXED", "content_hash", "document_for", "space_tag", "tag_groups", "tags_for"]

# Statuses a document is kept for: the current record, and the retired ones recall may still ask
# for (history, `as_of`). Candidates and rejected records are never indexed.
INDEXED = frozenset({Status.ACTIVE, Status.SUPERSEDED, Status.RETRACTED})


def space_tag(space_id: str) -> str:
    return f"space:{space_id}"


def tags_for(record: Record) -> tuple[str, ...]:
    tags = [space_tag(record.space_id), f"kind:{record.kind}", f"status:{record.status.value}"]
    area = record.attributes.get("area")
    if isinstance(area, str) and area:
        tags.append(f"area:{area}")
    tags.extend(f"tag:{t}" for t in record.tags)
    return tuple(scrub_text(t) for t in tags)


def _text(record: Record) -> str:
    return scrub_text(record.statement if not record.context else f"{record.statement}\n\n{record.context}")


def document_for(record: Record) -> Document:
    return Document(id=record.id, text=_text(record), timestamp=record.occurred_at, tags=tags_for(record))


def content_hash(record: Record) -> str:
    """The sha256 Hindsight reports for the document of `record` (of its text, as sent)."""
    return hashlib.sha256(_text(record).encode("utf-8")).hexdigest()


def tag_groups(space_id: str, flt: RecordFilter) -> list[TagGroup]:
    """The tag filter of one recall: always the space; the statuses, kinds and tags asked for.
    Time windows and `as_of` are not tags: the store-side check applies them."""
    statuses = flt.statuses or tuple(INDEXED)
    groups = [
        TagGroup((space_tag(space_id),), "all_strict"),
        TagGroup(tuple(sorted(f"status:{s.value}" for s in statuses)), "any_strict"),
    ]
    if flt.kinds:
        groups.append(TagGroup(tuple(f"kind:{k}" for k in flt.kinds), "any_strict"))
    if flt.tags:
        groups.append(TagGroup(tuple(f"tag:{t}" for t in flt.tags), "all_strict"))
    return groups
