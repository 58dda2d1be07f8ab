"""Attributes of a project rule, cut from the sentence's own words once its kind is known.

The sentence judge decides *whether* a sentence is a rule and of which kind; the phrase rules'
slot regexes (`rules.py`) and a few more here only fill the slots of that kind (what and why of a
decision, the approach that failed, the package a dependency rule names, the environment of a
process rule, ...). Nothing is paraphrased.
"""

from __future__ import annotations

import re
from typing import Any

from forethought.apps.project.areas import code_identifiers
from forethought.apps.project.rules import decision_slots, environment, failed_slots, subject, topic

__all__ = ["attributes"]

_PACKAGE = re.compile(r"(?<![\w/.-])(@?[a-z][\w.-]*(?:/[\w.-]+)?)(?:[@=~^<>]=?\s?v?\d[\w.]*)", re.I)
_NAMED = re.compile(
    r"\b(?:pin(?:s|ned)?|use[sd]?|using|ban(?:s|ned)?|avoid|drop(?:ped)?|allow(?:ed)?|adopt(?:ed)?|upgrade|"
    r"add(?:ing)?|import(?:ing)?)\s+(?:the\s+|any\s+)?`?(?P<name>@?[A-Za-z][\w.@/-]*[\w])`?",
    re.I,
)
_NOT_A_PACKAGE = frozenset(
    [
        "a",
        "an",
        "it",
        "this",
        "that",
        "them",
        "new",
        "old",
        "other",
        "our",
        "their",
        "every",
        "all",
        "any",
        "only",
        "one",
    ]
)
_HOLDER_PERSON = re.compile(r"^(?:personally,?\s+)?(?:I\b|I'|my\b)", re.I)


def _first_identifier(body: str) -> str | None:
    ids = code_identifiers(body)
    return ids[0] if ids else None


def _package(body: str) -> str | None:
    pinned = _PACKAGE.search(body)
    if pinned:
        return pinned.group(1)
    named = next(
        (m.group("name") for m in _NAMED.finditer(body) if m.group("name").lower() not in _NOT_A_PACKAGE), None
    )
    return named or _first_identifier(body)


def attributes(kind: str, body: str) -> dict[str, Any]:
    """The kind's attributes for a sentence (area excluded: the extractor adds it)."""
    rule = body.rstrip(" .")
    if kind == "decision":
        return decision_slots(body) or {"what": rule, "why": None, "alternatives_rejected": []}
    if kind == "failed_approach":
        return failed_slots(body) or {"approach": rule, "why_failed": None}
    if kind == "preference":
        return {"what": rule, "holder": "person" if _HOLDER_PERSON.search(body) else "team"}
    if kind == "convention":
        return {"rule": rule, "topic": topic(body)}
    if kind == "constraint":
        return {"rule": rule, "subject": subject(body) or _first_identifier(body)}
    if kind == "dependency_policy":
        return {"rule": rule, "package": _package(body)}
    if kind == "process":
        return {"rule": rule, "environment": environment(body)}
    return {"rule": rule, "component": _first_identifier(body)}  # architecture
