"""FakeHindsight: `HindsightAPI` in memory, for tests and demos without a server.

It keeps documents as the real server does (replace by id, tags on the document, 404 as False)
and ranks by shared words. Scriptable failures: `down = True` makes every call raise
HindsightUnavailable, `fail_next(n)` only the next n; `ignore_tags = True` makes recall ignore its
tag filter, as a broken or tampered index would, so the engine's store-side check can be shown to
hold. `calls` names every call made, in order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from forethought.engines.hindsight.base import (
    Document,
    DocumentInfo,
    HindsightAPI,
    HindsightUnavailable,
    IndexHit,
    TagGroup,
)

__all__ = ["FakeHindsight", "StoredDocument"]

_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


@dataclass
class StoredDocument:
    text: str
    tags: frozenset[str]
    order: int  # when it was first stored (the listing order)
    timestamp: str = ""
    retains: int = field(default=1)


class FakeHindsight(HindsightAPI):
    def __init__(self, *, bank: str = "forethought") -> None:
        self.bank = bank
        self.banks: set[str] = set()
        self.docs: dict[str, StoredDocument] = {}
        self.calls: list[str] = []
        self.down = False
        self.ignore_tags = False
        self._failures = 0
        self._order = 0

    def fail_next(self, n: int = 1) -> None:
        self._failures += n

    def _call(self, name: str) -> None:
        self.calls.append(name)
        if self.down or self._failures:
            self._failures = max(0, self._failures - 1)
            raise HindsightUnavailable(f"fake Hindsight is down ({name})")

    def ensure_bank(self) -> None:
        self._call("ensure_bank")
        self.banks.add(self.bank)

    def retain(self, document: Document) -> None:
        self._call("retain")
        old = self.docs.get(document.id)
        if old is None:
            self._order += 1
        self.docs[document.id] = StoredDocument(
            text=document.text,
            tags=frozenset(document.tags),
            order=old.order if old else self._order,
            timestamp=document.timestamp.isoformat(),
            retains=old.retains + 1 if old else 1,
        )

    def retag(self, document_id: str, tags: Sequence[str]) -> bool:
        self._call("retag")
        doc = self.docs.get(document_id)
        if doc is None:
            return False
        doc.tags = frozenset(tags)
        return True

    def delete(self, document_id: str) -> bool:
        self._call("delete")
        return self.docs.pop(document_id, None) is not None

    def recall(self, query: str, groups: Sequence[TagGroup], *, max_tokens: int) -> list[IndexHit]:
        self._call("recall")
        asked = _words(query)
        scored = []
        for doc_id, doc in self.docs.items():
            if not self.ignore_tags and not all(_matches(doc.tags, g) for g in groups):
                continue
            shared = len(asked & _words(doc.text))
            if shared:
                scored.append(IndexHit(doc_id, doc.tags, shared / max(1, len(asked))))
        scored.sort(key=lambda h: (-h.score, h.document_id))
        hits, tokens = [], 0
        for hit in scored:
            tokens += max(1, len(self.docs[hit.document_id].text) // 4)
            if tokens > max_tokens:
                break
            hits.append(hit)
        return hits

    def documents(self, *, limit: int, offset: int) -> list[DocumentInfo]:
        self._call("documents")
        ordered = sorted(self.docs.items(), key=lambda item: -item[1].order)
        return [
            DocumentInfo(doc_id, doc.tags, hashlib.sha256(doc.text.encode("utf-8")).hexdigest())
            for doc_id, doc in ordered[offset : offset + limit]
        ]

    def version(self) -> str:
        self._call("version")
        return "fake"


def _matches(tags: frozenset[str], group: TagGroup) -> bool:
    wanted = set(group.tags)
    return wanted <= tags if group.match == "all_strict" else bool(wanted & tags)
