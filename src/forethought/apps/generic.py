"""The generic app: plain notes, preferences and decisions for any subject (the CLI's default)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from forethought.apps.base import App, KindSpec, Review
from forethought.apps.demo import Demo, DemoMemory
from forethought.domain import Evidence, Role, Session
from forethought.domain.candidates import Candidate
from forethought.text.sentences import sentences

__all__ = ["APP", "GenericApp"]


class _NoAttributes(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Preference(BaseModel):
    model_config = ConfigDict(extra="forbid")

    polarity: str = "likes"  # likes | dislikes


_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("note", re.compile(r"^\s*(?:please\s+)?remember(?:\s+that)?\s+(?P<body>.+)", re.I)),
    ("decision", re.compile(r"^\s*(?P<body>we(?:'ve| have)?\s+decided\s+.+)", re.I)),
    ("preference", re.compile(r"^\s*(?P<body>i\s+(?:really\s+)?(?:prefer|like|love|hate|dislike)\s+.+)", re.I)),
    ("note", re.compile(r"^\s*(?P<body>(?:always|never)\s+.+)", re.I)),
]

# One person's notes (what `serve --demo` seeds for the generic app).
_DEMO = Demo(
    memories=(
        DemoMemory(
            subject="me",
            external_id="me-short",
            kind="preference",
            text="I prefer short answers with code first.",
            occurred_at="2026-01-05",
            attributes={"polarity": "likes"},
        ),
    )
)


class GenericApp(App):
    name = "generic"
    title = "Generic memory"
    subject_type = "generic"
    kinds: ClassVar[Mapping[str, KindSpec]] = {
        "note": KindSpec(
            name="note", description="A fact worth remembering.", attributes=_NoAttributes, review=Review.AUTO
        ),
        "preference": KindSpec(
            name="preference",
            description="Something the person likes or dislikes.",
            attributes=Preference,
            review=Review.AUTO,
        ),
        "decision": KindSpec(
            name="decision", description="A decision that was made.", attributes=_NoAttributes, review=Review.HUMAN
        ),
    }

    def demo(self) -> Demo:
        return _DEMO

    def extract(self, session: Session) -> list[Candidate]:
        found: list[Candidate] = []
        for turn in session.turns:
            if turn.role is not Role.USER:
                continue
            for sentence in sentences(turn.text):
                for kind, rule in _RULES:
                    hit = rule.match(sentence)
                    if hit is None:
                        continue
                    body = hit.group("body").strip().rstrip(".!?")
                    attributes = {}
                    if kind == "preference":
                        attributes = {"polarity": "dislikes" if re.search(r"\b(hate|dislike)", body, re.I) else "likes"}
                    found.append(
                        Candidate(
                            kind=kind,
                            statement=body[0].upper() + body[1:] + ".",
                            attributes=attributes,
                            evidence=[
                                Evidence(quote=sentence, session_id=session.id, turn_index=turn.index, role=turn.role)
                            ],
                            confidence=0.6,
                            asserted_by=turn.role,
                        )
                    )
                    break
        return found


APP = GenericApp()
