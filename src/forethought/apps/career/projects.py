"""Project rules: "I built a chess engine in C++", "I'm building a dashboard in React".

The object of a build verb is a project only when it names a kind of software or hardware thing
(`PROJECT_NOUNS`: "I made a mistake" is not a project) or is introduced by "called"/"named". Its
technologies are the lexicon skills named anywhere after the verb. Plans ("I want to build"),
negations ("I've never built") and questions record nothing.
"""

from __future__ import annotations

import re

from forethought.apps.career.kinds import Project
from forethought.apps.career.lexicon import PROJECT_NOUNS, find_skills
from forethought.apps.career.text import HEDGE, Found, blocked, clause_prefix
from forethought.text.slugs import tag_value

__all__ = ["find_project_facts"]

_ADVERBS = r"(?:(?:also|just|recently|once|actually|already|finally|even)\s+)*"
_BUILT = re.compile(
    rf"(?:\b(?:i|we)(?:'ve\s+|\s+(?:have\s+|had\s+)?)|^\W*){_ADVERBS}(?P<verb>built|made|created|developed|designed|wrote|"
    r"coded|programmed|implemented|shipped|launched|published|deployed|prototyped|trained)\s+",
    re.I,
)
_BUILDING = re.compile(
    r"\bi(?:'m|\s+am)\s+(?:currently\s+|also\s+|now\s+|still\s+)?(?P<verb>building|making|developing|creating|"
    r"writing|coding|working\s+on)\s+",
    re.I,
)
# "a Twitter clone I made with Django": the object comes before the verb.
_MADE_BY_ME = re.compile(
    r"\b(?:an?|my|the)\s+(?P<np>(?:(?!(?:an?|the|my|and|with|has|have|is|was|for|of)\b)[\w'-]+\s+){0,3}[\w'-]+?)\s+"
    r"(?:that\s+)?(?:i|we)\s+(?:(?:have|'ve)\s+)?"
    r"(?P<verb>built|made|wrote|created|developed|designed|coded)\b",
    re.I,
)
_MY_PROJECT = re.compile(r"\bmy\s+(?:[\w-]+\s+){0,3}?project\s+(?P<verb>is|was)\s+", re.I)
_NP_END = re.compile(
    r"[,.;!?:(]|\s+-\s+|—|\s+(?:in|with|using|on|for|at|during|that|which|who|to|from|last|this|over|when|because|as|"
    r"after|before|while|called|named|built|made|written|developed|created|powered|based|running|and\s+(?:i|it|"
    r"then|my|we|now))\b",
    re.I,
)
_CALLED = re.compile(
    r"\b(?:called|named)\s+[\"“']?(?P<name>[\w][\w .'-]{0,40}?)[\"”']?"
    r"(?=[,.;!?]|\s+(?:in|with|using|that|which|for)\b|$)",
    re.I,
)
_PREPOSITION = re.compile(r"(?:with|in|using|for|at|on|to|from)\b", re.I)
_DETERMINER = re.compile(r"^(?:a|an|the|my|our|this|that|some|another|its|his|her|their|one)\s+", re.I)


def _name_and_phrase(rest: str) -> tuple[str, str] | None:
    """The project's name and its noun phrase as said, or None when it is not a project."""
    called = _CALLED.search(rest)
    end = _NP_END.search(rest)
    phrase = rest[: end.start() if end else len(rest)].strip()
    name = _DETERMINER.sub("", phrase).strip()
    if called and (not end or called.start() <= end.start() + 1):
        return called.group("name").strip(), phrase or called.group("name").strip()
    return (name, phrase) if _is_project(name) else None


def _project(name: str, phrase: str, rest: str, verb: str) -> Found:
    description = rest.strip().rstrip(".!?").strip()
    technologies = list(dict.fromkeys(m.name for m in find_skills(description)))
    using = f" ({', '.join(technologies)})" if technologies else ""
    return Found(
        kind="project",
        attributes=Project(name=name, description=description[:300], technologies=technologies),
        statement=f"The student {verb} {phrase}{using}.",
        confidence=0.7,
        tags=(f"project:{tag_value(name)}",),
    )


def _is_project(name: str) -> bool:
    words = [w.strip(".,'\"").lower() for w in re.split(r"[\s/]+", name) if w]
    return 0 < len(words) <= 8 and any(w in PROJECT_NOUNS or w.rstrip("s") in PROJECT_NOUNS for w in words)


def find_project_facts(sentence: str) -> list[Found]:
    """Projects the student built or is building, stated in one sentence."""
    found: list[Found] = []
    for hit in _MADE_BY_ME.finditer(sentence):
        if HEDGE.search(clause_prefix(sentence, hit.start())) or not _is_project(hit.group("np")):
            continue
        phrase = sentence[hit.start() : hit.end("np")]
        tail = re.split(r"\s+and\s+(?:an?|the|my)\b|[,;]", sentence[hit.end("verb") :])[0]
        found.append(_project(hit.group("np"), phrase, f"{phrase}{tail}", "built"))
    for pattern in (_BUILT, _BUILDING, _MY_PROJECT):
        for hit in pattern.finditer(sentence):
            if blocked(sentence, hit.start()):
                continue
            rest = sentence[hit.end() :]
            # "I made with Django ...": the object came before the verb (see _MADE_BY_ME).
            if re.search(r"\bnever\b", hit.group(0), re.I) or _PREPOSITION.match(rest):
                continue
            if (named := _name_and_phrase(rest)) is None:
                continue
            verb = hit.group("verb").lower()
            ongoing = verb not in ("is", "was") and verb.endswith(("ing", " on"))
            found.append(_project(named[0], named[1], rest, "is building" if ongoing else "built"))
    return found
