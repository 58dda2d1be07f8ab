"""Attributes of a project rule, cut from the sentence's own words once its kind is known.

The sentence judge decides *whether* a sentence is a rule and of which kind; these regexes only
fill the slots of that kind (what and why of a decision, the approach that failed, the package a
dependency rule names, the environment of a process rule, ...). Nothing is paraphrased.
"""

from __future__ import annotations

import re
from typing import Any

from forethought.apps.project.areas import code_identifiers
from forethought.apps.project.rules import classify, decision_slots, failed_slots

__all__ = ["attributes"]

_ENVIRONMENT = re.compile(r"\b(?:production|prod|staging|preview|dev|qa|testflight|app\s+store)\b", re.I)
_TOPICS = tuple(
    (name, re.compile(pattern, re.I))
    for name, pattern in (
        ("naming", r"\b(?:name[ds]?|naming|prefix\w*|suffix\w*|snake_case|camelCase|kebab-case|PascalCase)\b"),
        ("layout", r"\b(?:lives?\s+(?:in|under)|go(?:es)?\s+(?:in|under)|belongs?\s+in|folders?|director(?:y|ies))\b"),
        ("imports", r"\bimports?\b"),
        ("testing", r"\b(?:tests?|mocks?|fixtures?|asserts?)\b"),
        ("style", r"\b(?:format\w*|indent\w*|tabs|spaces|lint\w*|comments?|docstrings?)\b"),
    )
)
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
        topic = next((name for name, rx in _TOPICS if rx.search(body)), "practice")
        return {"rule": rule, "topic": topic}
    if kind == "constraint":
        phrase = classify(body)
        subject = phrase.attributes.get("subject") if phrase is not None else None
        return {"rule": rule, "subject": subject if isinstance(subject, str) else _first_identifier(body)}
    if kind == "dependency_policy":
        return {"rule": rule, "package": _package(body)}
    if kind == "process":
        env = _ENVIRONMENT.search(body)
        return {"rule": rule, "environment": env.group(0).lower() if env else None}
    return {"rule": rule, "component": _first_identifier(body)}  # architecture
