"""Demo data an app ships for its own kinds: what `forethought serve --demo` seeds and what the
`forethought demo` tour retains, submits, briefs, checks and asks.

Typed so a front end only loops over it: it never names an app's kinds or writes its sentences.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from forethought.domain import CheckPatterns
from forethought.domain.documents import SourceDocument

__all__ = ["Demo", "DemoDocument", "DemoMemory", "DemoSession"]


class DemoMemory(BaseModel):
    """One memory to retain: in `subject`'s space, under `external_id` (so seeding twice creates
    nothing), with the app's kind and attributes."""

    model_config = ConfigDict(frozen=True)

    subject: str
    kind: str
    text: str
    occurred_at: str
    external_id: str | None = None
    attributes: dict[str, Any] | None = None
    tags: tuple[str, ...] = ()
    check: CheckPatterns | None = None


class DemoDocument(BaseModel):
    """A source document to file in `subject`'s space (an ADR, a commit, a session), once by its
    ref; with `approve`, what it proposes is approved as the team's, else it waits in the inbox."""

    model_config = ConfigDict(frozen=True)

    subject: str
    document: SourceDocument
    approve: bool = True


class DemoSession(BaseModel):
    """A conversation to submit, then a task to brief, a draft to check and a question to ask."""

    model_config = ConfigDict(frozen=True)

    subject: str
    title: str
    transcript: str  # "User: ..." / "Assistant: ..." lines
    task: str
    draft: str
    question: str


class Demo(BaseModel):
    """An app's demo: `memories` and `documents` seed the demo workspace; `tour` and `session`
    drive the tour."""

    model_config = ConfigDict(frozen=True)

    memories: tuple[DemoMemory, ...] = ()
    documents: tuple[DemoDocument, ...] = ()
    tour: tuple[DemoMemory, ...] = ()
    session: DemoSession | None = None
