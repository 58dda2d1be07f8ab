"""Source documents: what a project already wrote down, read as sessions that propose records.

A commit message, an Architecture Decision Record or a rule file (`AGENTS.md`, `.cursorrules`...)
is not a conversation, but it is captured like one: its text becomes the turns of a session (kept
verbatim, secrets scrubbed), and what it proposes to remember arrives in the inbox quoting those
turns, dated when the document was written. Readers (`apps/project/sources/`) turn files into
`SourceDocument`s and never write; the pipeline files them (`pipeline/documents.py`).

A document either lists its items (a rule file: one per rule; an ADR: its decision) or asks the
app's extractor to read its turns (`extract=True`: a commit message, judged sentence by sentence).
`ref` is the document's identity in its source ("git:<hash>", "adr:<number>", "rules:<path>"):
filing the same document twice files it once.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from forethought.domain.sessions import Turn

__all__ = ["ITEMISED_SOURCES", "MAX_ITEMS", "DocumentStatus", "ItemAction", "SourceDocument", "SourceItem"]

# Sources whose documents list every rule they hold as an item: nothing in them is left for a
# brief's past-session excerpts to quote (a commit message, read by the extractor, stays quotable).
ITEMISED_SOURCES = frozenset({"rules", "adr"})
MAX_ITEMS = 500  # per document; a reader stops there and says so in `notes`


class ItemAction(StrEnum):
    PROPOSE = "propose"  # a candidate record for the inbox
    RETRACT = "retract"  # propose retracting what the target document gave (a git revert)


class DocumentStatus(StrEnum):
    """Where a document stands in its own source (an ADR's status line; the rest are current)."""

    CURRENT = "current"  # accepted ADRs, commits, rule files
    PROPOSED = "proposed"  # an ADR still under discussion: its items are proposals, not decisions
    SUPERSEDED = "superseded"  # replaced by the documents in `superseded_by`
    DEPRECATED = "deprecated"  # withdrawn without a replacement
    REJECTED = "rejected"  # an ADR that was turned down: nothing to remember as a rule


class SourceItem(BaseModel):
    """One thing a document proposes, quoting it verbatim."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    quote: str  # a verbatim passage of turn `turn_index`'s text
    turn_index: int = 0
    kind: str | None = None  # the app's kind when the source says it; None: the app's judge decides
    statement: str | None = None  # None: the quote, whitespace collapsed
    action: ItemAction = ItemAction.PROPOSE
    target_ref: str | None = None  # for RETRACT: the `ref` of the document whose records it withdraws
    attributes: dict[str, Any] = Field(default_factory=dict)  # e.g. {"area": "payments"}


class SourceDocument(BaseModel):
    """One document of a source, ready to be filed as a session with its proposals."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ref: str  # identity in its source: filing twice files once
    source: str  # "git", "adr", "rules"
    title: str  # the session's title (≤ 200 characters)
    turns: tuple[Turn, ...]  # the document's text as it is stored
    occurred_at: datetime | None = None  # when it was written (commit author date, ADR date)
    items: tuple[SourceItem, ...] = ()
    extract: bool = False  # True: the app's extractor reads the turns (items may add to it)
    status: DocumentStatus = DocumentStatus.CURRENT
    supersedes: tuple[str, ...] = ()  # refs of documents this one replaces
    superseded_by: tuple[str, ...] = ()  # refs of documents that replace this one
    skipped: str | None = None  # why a document gives nothing (a merge, "wip"): reported, not filed
    metadata: dict[str, Any] = Field(default_factory=dict)  # hash, author date, path, ADR number...
