"""Skill rules: "I know X", "I'm learning X", "I've been writing X for 3 years", "I've never used X".

A trigger phrase sets whether the student has the skill and at what level; the skills are the names
from the lexicon found after it, up to the end of its clause ("I know Python, Java and SQL" → three).
A name right after "not"/"no" inside that span flips to has=False ("Python but not Java").

Levels. A trigger fixes the level when it says one (learning, new to, a course → beginner;
comfortable, good at → intermediate; proficient, strong → advanced; expert → expert). Otherwise a
duration in the same sentence decides: under a year → beginner, one to two years → intermediate,
three or more → advanced (never expert: expertise is a claim only the student makes). "Pretty well"
after the skill reads as intermediate, "very well" as advanced, "a little" as beginner; else the
level is unknown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from forethought.apps.career.kinds import Skill, SkillLevel
from forethought.apps.career.lexicon import find_skills
from forethought.apps.career.text import Found, blocked
from forethought.text.slugs import tag_value

__all__ = ["find_skill_facts", "years_level"]

_I_AM = r"\bi(?:'m|\s+am)\s+"
_I_HAVE = r"\bi(?:'ve|\s+have)\s+"


@dataclass(frozen=True)
class _Trigger:
    pattern: re.Pattern[str]
    effect: str  # "absent", a level, "word" / "adjective" (level said in the trigger), or "duration"
    negated_ok: bool  # the trigger itself carries the negation ("I'm not very good at", "I don't know")

    @property
    def has(self) -> bool:
        return self.effect != "absent"


def _t(effect: str, pattern: str) -> _Trigger:
    """`effect` as in `_Trigger`; a trailing "!" on a level marks a trigger that carries a negation."""
    negated_ok = effect == "absent" or effect.endswith("!")
    return _Trigger(re.compile(pattern, re.I), effect.rstrip("!"), negated_ok)


# In priority order: an earlier trigger's span blocks a later one that overlaps it.
_TRIGGERS: tuple[_Trigger, ...] = (
    _t(
        "beginner!",
        _I_AM + r"not\s+(?:very\s+|that\s+|too\s+|so\s+|super\s+)?(?:good|great|strong|confident|comfortable)"
        r"\s+(?:at|in|with)\b",
    ),
    _t("absent", _I_AM + r"not\s+(?:at\s+all\s+|really\s+)?familiar\s+with\b"),
    _t(
        "absent",
        r"\bi\s+(?:don't|do\s+not|dont)\s+(?:really\s+|actually\s+|even\s+)?(?:know|use|code\s+in|program\s+in)\b",
    ),
    _t(
        "absent",
        r"\b(?:i(?:'ve|\s+have)?\s+)?(?:actually\s+)?never\s+(?:really\s+|actually\s+|even\s+)?(?:used|written|"
        r"touched|learned|learnt|tried|worked\s+with|coded\s+in|programmed\s+in|studied|done)\b",
    ),
    _t(
        "absent",
        r"\bi\s+(?:haven't|have\s+not)\s+(?:ever\s+|yet\s+|really\s+)?(?:used|written|touched|learned|learnt|tried|"
        r"worked\s+with|coded\s+in|studied)\b",
    ),
    _t(
        "absent",
        _I_HAVE + r"(?:got\s+)?(?:no|zero)\s+(?:real\s+|prior\s+|professional\s+)?(?:experience|background|knowledge)"
        r"\s+(?:with|in|of|using)\b",
    ),
    _t("absent", r"\bi\s+(?:can't|cannot|can\s+not)\s+(?:code|program|write\s+code)\s+in\b"),
    _t("absent", r"\bi\s+know\s+(?:nothing|absolutely\s+nothing)\s+(?:about|of)\b"),
    _t(
        "beginner",
        r"\bi(?:'ve|\s+have)?\s+(?:only\s+|just\s+)?(?:dabbled|dabble|tinkered|played\s+around|messed\s+around)"
        r"\s+(?:in|with)\b",
    ),
    _t(
        "beginner",
        _I_AM + r"(?:currently\s+|still\s+|now\s+|also\s+|slowly\s+)?(?:learning|studying|picking\s+up|getting\s+into|"
        r"teaching\s+myself)\b",
    ),
    _t(
        "beginner",
        r"\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+)?(?:started|begun|began)\s+(?:learning|using|studying|"
        r"to\s+learn|with|playing\s+with)\b",
    ),
    _t(
        "beginner",
        _I_AM + r"(?:pretty\s+|very\s+|fairly\s+|still\s+|quite\s+)?(?:new\s+to|a\s+beginner\s+(?:in|at|with))\b",
    ),
    _t(
        "beginner",
        r"\bi\s+(?:also\s+|only\s+|do\s+)?know\s+(?:a\s+(?:little|bit)(?:\s+of)?|(?:the\s+)?basics\s+of|some)\b",
    ),
    _t(
        "beginner",
        r"\bi\s+(?:took|completed|finished|did|am\s+taking|'m\s+taking)\s+(?:an?\s+|the\s+|my\s+)?(?:[\w-]+\s+){0,2}?"
        r"(?:course|class|bootcamp|certification|module|mooc)\s+(?:in|on|about)\b",
    ),
    _t("expert", _I_AM + r"(?:an?\s+)?expert\s+(?:in|at|with)\b"),
    _t("advanced", _I_AM + r"(?:very|really|extremely|super)\s+good\s+(?:at|in|with)\b"),
    _t(
        "advanced",
        _I_AM + r"(?:very\s+|really\s+|pretty\s+|quite\s+|highly\s+)?(?:proficient|fluent|advanced|skilled|strong|"
        r"experienced)\s+(?:in|at|with)\b",
    ),
    _t(
        "beginner",
        r"\b(?:i(?:'m|\s+am)\s+)?(?:a\s+bit\s+|pretty\s+|quite\s+|really\s+)?(?:weak|rusty|shaky)\s+(?:in|at|with|on)\b",
    ),
    _t(
        "intermediate",
        _I_AM + r"(?:pretty\s+|quite\s+|fairly\s+|reasonably\s+)?(?:good|decent|comfortable|familiar|confident|solid)"
        r"\s+(?:at|in|with)\b",
    ),
    _t("word", r"\b(?:at\s+an?\s+|at\s+)?(?:beginner|intermediate|advanced)(?:\s+level)?\s+(?:in|at|with)\b"),
    _t(
        "duration",
        _I_HAVE + r"(?:got\s+)?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple(?:\s+of)?|a\s+few|"
        r"several)\+?\s+years?\s+(?:of\s+)?(?:experience\s+(?:with|in|using)\s+|professional\s+)?",
    ),
    _t(
        "adjective",
        _I_HAVE + r"(?:some|a\s+lot\s+of|lots\s+of|a\s+little|little|basic|solid|strong|extensive|good|decent|"
        r"professional|hands-on)?\s*experience\s+(?:with|in|using)\b",
    ),
    _t(
        "duration",
        _I_HAVE + r"been\s+(?:using|writing|coding\s+in|programming\s+in|working\s+with|doing|developing\s+(?:in|with))"
        r"\b",
    ),
    _t(
        "duration",
        r"\bi(?:'ve|\s+have)?\s+(?:also\s+|mostly\s+|mainly\s+|regularly\s+|often\s+|usually\s+|already\s+|only\s+|"
        r"just\s+|actually\s+|really\s+)?(?:know|"
        r"use|used|code\s+in|program\s+in|write|written|work\s+with|worked\s+with|can\s+code\s+in|can\s+program\s+in)\b",
    ),
    _t(
        "duration",
        r"\b(?:my\s+(?:main\s+|technical\s+|tech\s+|core\s+)?skills\s+(?:include|are)|(?:my\s+)?(?:tech\s+)?stack\s*"
        r"(?:is|:)|skills\s*:)",
    ),
)
# "but not Java" after a positive trigger; "no AWS or GCP" when experience is being discussed.
_BUT_NOT = re.compile(r",?\s+(?:but|and)\s+not\s+(?:really\s+)?", re.I)
_NO = re.compile(r"\b(?:no|zero)\s+", re.I)
_ABOUT_EXPERIENCE = re.compile(r"\b(?:experience|background|knowledge|skills?)\b", re.I)
_LITTLE_BEFORE = re.compile(r"\ba\s+(?:little|bit)(?:\s+of)?\s*$", re.I)
_FLIP = re.compile(r"\b(?:not|no)\s+(?:really\s+|even\s+)?$", re.I)
_REGION_END = re.compile(
    r"[;!?:]|\.(?=\s|$)|—|–|\s-\s|\((?!\w+\))"
    r"|,\s*(?=(?:but|so|because|although|though|while|which|since|and\s+(?:i|i'm|i've|my|also)|i|i'm|i've)\b)"
    r"|\s+(?:but|although|though|whereas|because|since|while|so|if|when|for|from|at|to|as|which|that|who|"
    r"than)\b|\s+and\s+(?=(?:i|i'm|i've|my|also)\b)|\s+(?:pretty|quite|really|very|fairly)\s+well\b",
    re.I,
)
_WELL = re.compile(
    r"\b(?P<how>pretty|quite|fairly|reasonably|really|very|extremely)\s+well\b|\b(?P<little>a\s+(?:little|bit))"
    r"(?=\s*(?:[,.;!?]|$|\s+(?:but|and|so|though|now|too)\b))",
    re.I,
)
_YEARS = re.compile(
    r"\b(?P<n>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple(?:\s+of)?|a\s+few|several|"
    r"an?|half\s+a)\+?\s+(?P<unit>years?|yrs?|months?|weeks?)\b",
    re.I,
)
_DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_NUMBERS = {word: float(n) for n, word in enumerate(_DIGITS)} | {
    "a couple": 2,
    "a couple of": 2,
    "a few": 3,
    "several": 4,
    "a": 1,
    "an": 1,
    "half a": 0.5,
}
_ADJECTIVE_LEVEL = (
    {word: "beginner" for word in ("a little", "little", "basic")}
    | {word: "intermediate" for word in ("some", "good", "decent", "hands-on")}
    | {word: "advanced" for word in ("a lot of", "lots of", "solid", "strong", "extensive", "professional")}
)


def years_level(sentence: str) -> str | None:
    """The level a duration in `sentence` implies (see the module docstring), or None."""
    match = _YEARS.search(sentence)
    if match is None:
        return None
    raw = " ".join(match.group("n").lower().split())
    amount = float(raw) if raw[0].isdigit() else _NUMBERS.get(raw, 1)
    unit = match.group("unit").lower()
    years = amount if unit.startswith(("y", "yr")) else amount / 12 if unit.startswith("month") else amount / 52
    return "beginner" if years < 1 else "intermediate" if years < 3 else "advanced"


def _level(trigger: _Trigger, hit: re.Match[str], sentence: str, region_end: int) -> str:
    if not trigger.has:
        return "unknown"
    if trigger.effect == "word":
        return next(w for w in ("beginner", "intermediate", "advanced") if w in hit.group(0).lower())
    if trigger.effect == "adjective":
        adjective = re.search(r"(?:have|'ve)\s+(?:got\s+)?(.*?)\s*experience", hit.group(0), re.I)
        return _ADJECTIVE_LEVEL.get(" ".join(adjective.group(1).lower().split()), "unknown") if adjective else "unknown"
    if trigger.effect != "duration":
        return trigger.effect
    if by_years := years_level(sentence):
        return by_years
    well = _WELL.search(sentence[hit.end() : region_end + 30])
    if well is not None:
        if well.group("little"):
            return "beginner"
        return "advanced" if well.group("how").lower() in ("really", "very", "extremely") else "intermediate"
    return "unknown"


def _fact(name: str, has: bool, level: str) -> Found:
    level = level if has else "unknown"
    if has:
        statement = f"The student knows {name}" + (f" ({level} level)." if level != "unknown" else ".")
    else:
        statement = f"The student does not know {name}."
    return Found(
        kind="skill",
        attributes=Skill(name=name, level=cast(SkillLevel, level), has=has),
        statement=statement,
        confidence=0.8 if not has or level != "unknown" else 0.7,
        tags=(f"skill:{tag_value(name)}",),
    )


def _region_end(sentence: str, start: int) -> int:
    end = _REGION_END.search(sentence, start)
    return end.start() if end else len(sentence)


def find_skill_facts(sentence: str) -> list[Found]:
    """Skill facts stated in one sentence of the student's (see the module docstring)."""
    taken: list[tuple[int, int]] = []
    found: dict[str, Found] = {}
    where: dict[str, int] = {}
    positive_end = -1
    for trigger in _TRIGGERS:
        for hit in trigger.pattern.finditer(sentence):
            overlaps = any(s < hit.end() and hit.start() < e for s, e in taken)
            if overlaps or blocked(sentence, hit.start(), negated_ok=trigger.negated_ok):
                continue
            taken.append((hit.start(), hit.end()))
            end = _region_end(sentence, hit.end())
            level = _level(trigger, hit, sentence, end)
            region, last = sentence[hit.end() : end], 0
            for mention in find_skills(region):
                has = trigger.has and not _FLIP.search(region[last : mention.start])
                little = trigger.effect == "duration" and _LITTLE_BEFORE.search(region[last : mention.start])
                found.setdefault(mention.name, _fact(mention.name, has, "beginner" if little else level))
                where.setdefault(mention.name, hit.end() + mention.start)
                last = mention.end
            if trigger.has:
                positive_end = max(positive_end, end)
    _negated_tails(sentence, positive_end, found)
    return sorted(found.values(), key=lambda f: where.get(getattr(f.attributes, "name", ""), len(sentence)))


def _negated_tails(sentence: str, positive_end: int, found: dict[str, Found]) -> None:
    """'..., but not Java' after a positive trigger; 'no AWS or GCP' when talking about experience."""
    starts: list[int] = []
    if positive_end >= 0 and (tail := _BUT_NOT.match(sentence, positive_end)):
        starts.append(tail.end())
    if _ABOUT_EXPERIENCE.search(sentence):
        starts.extend(m.end() for m in _NO.finditer(sentence) if find_skills(sentence[m.end() : m.end() + 40])[:1])
    for start in starts:
        end = _region_end(sentence, start)
        first = find_skills(sentence[start:end])
        if not first or first[0].start > 0:
            continue
        for mention in first:
            found.setdefault(mention.name, _fact(mention.name, False, "unknown"))
