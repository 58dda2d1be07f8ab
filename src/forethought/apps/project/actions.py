"""Forbidden actions a rule names by a verb, and the code shape that performs them.

A rule that forbids doing something ("never writes to a node ... no write calls", "do not redact by
drawing rectangles", "the web app never runs ffmpeg") is broken by a draft that *calls* the action,
whatever the rule's other words. Three shapes, each read off the rule's own words:

- **Calls by name.** "no write calls", "no direct fetch calls": a call whose name is the word, or
  starts with it and goes on in camelCase or snake_case (`write(`, `writeValue(`, `write_file(`,
  `client.writeValue(`), never a longer word (`writer(`).
- **The action as an identifier.** "do not <verb> by <verb>ing <object>" and "never <verb> <object>"
  forbid a call named for the verb and its object together: "drawing rectangles" → `drawRect(`,
  `drawRectangle(`, `draw_rectangles(`; "never hard-delete claims" → `hardDeleteClaim(`. The verbs
  that other forms already read (use, import, log, store, send, ...) are left to those forms.
- **Commands run.** "never runs / spawns / executes / shells out to X" forbids X as a command: a
  script line starting with it, or a string that starts with it as the first argument of a call
  (`spawn('ffmpeg', ...)`, `subprocess.run(["ffmpeg", ...])`, `exec("ffmpeg -i ...")`).

A clause with an exception ("unless", "without", "except") derives nothing: the regex cannot see
the exception. Every pattern escapes what it embeds and uses bounded repetition only.
"""

from __future__ import annotations

import re

from forethought.apps.project.banned import clauses
from forethought.text.words import vocabulary

__all__ = ["action_patterns"]

_NEG = r"(?:never|do\s+not|don'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|may\s+not|cannot|can'?t)"
_EXCEPTION = re.compile(r"\b(?:without|unless|except|other\s+than|outside)\b", re.I)
_NO_CALLS = re.compile(
    r"\bno\s+(?:direct\s+|raw\s+|bare\s+|more\s+)?`?(?P<name>[A-Za-z_$][\w$.]{1,60}?)`?(?:\(\))?\s+calls?\b", re.I
)
_BY_MEANS = re.compile(
    _NEG + r"\s+\w+(?:\s+\w+)?\s+by\s+(?P<verb>[a-z]{3,}ing)\s+(?:the\s+|an?\s+|any\s+)?(?P<object>[a-z]{3,})\b",
    re.I,
)
_NEVER_DO = re.compile(
    _NEG + r"\s+(?:ever\s+)?(?P<verb>[a-z]+(?:-[a-z]+)?)\s+(?:the\s+|an?\s+|any\s+)?(?P<object>[a-z]{3,})\b", re.I
)
_RUNS = re.compile(
    _NEG + r"\s+(?:runs?|running|spawns?|spawning|execs?|executes?|executing|shells?\s+out\s+to|invokes?)\s+"
    r"`?(?P<name>[A-Za-z][\w.+-]{1,40}[\w])`?",
    re.I,
)
# Verbs other forms read (libraries, storage, logging, sinks, tables) or that name no action of code.
_OTHER_VERBS = vocabulary(
    """use uses using import imports add adds call calls install log logs store stores put keep save persist
    cache send sends set sets write writes go goes be is are have has get let make do run runs rely depend
    need exceed allow change touch mix return returns hardcode hard-code assume trust"""
)
# Objects that are English, not part of a name ("never retry the same ...", "never delete any").
_NOT_OBJECTS = vocabulary(
    """the any all more than that this them those these it its our your their other same new old one way
    more longer code file files data thing things anything something"""
)
_EVERYDAY_COMMANDS = _NOT_OBJECTS | vocabulary("a an tests jobs scripts migrations")


def _stem(verb: str) -> str:
    """The verb a gerund is of, as a prefix: drawing → draw, logging → log, storing → stor."""
    verb = verb.lower()
    if verb.endswith("ing") and len(verb) > 5:
        verb = verb[:-3]
        if len(verb) > 3 and verb[-1] == verb[-2] and verb[-1] not in "ls":
            verb = verb[:-1]  # logging → log, but not "calling" → "cal"
    return verb


def _object_prefix(word: str) -> str:
    word = word.lower()
    return word[:4] if len(word) > 4 else word


def _named_call(verb: str, obj: str) -> str:
    parts = [re.escape(p) for p in re.split(r"-", _stem(verb)) if p]
    head = "_?".join(f"(?i:{p})" for p in parts)
    return rf"(?<![\w$]){head}_?(?i:{re.escape(_object_prefix(obj))})[\w$]{{0,40}}\s*\("


def _calls(name: str) -> str:
    if "." in name:
        return rf"(?<![\w$.]){re.escape(name)}\s*\("
    return rf"(?<![\w$]){re.escape(name)}(?:[A-Z_][\w$]{{0,40}})?\s*\("


def _command(name: str) -> str:
    n = re.escape(name)
    return rf"(?m:^[ \t]*(?:sudo[ \t]+|exec[ \t]+)?{n}(?![\w.-])|[(\[,][ \t]*['\"`]{n}(?:['\"`]|[ \t]))"


def action_patterns(rule: str) -> list[str]:
    """Forbid patterns for the actions `rule` forbids (see the module doc); [] when it names none."""
    out: list[str] = []
    for clause in clauses(rule):
        if _EXCEPTION.search(clause):
            continue
        for m in _NO_CALLS.finditer(clause):
            if m.group("name").lower() not in _NOT_OBJECTS:
                out.append(_calls(m.group("name")))
        for m in _BY_MEANS.finditer(clause):
            if m.group("object").lower() not in _NOT_OBJECTS:
                out.append(_named_call(m.group("verb"), m.group("object")))
        for m in _NEVER_DO.finditer(clause):
            verb, obj = m.group("verb").lower(), m.group("object").lower()
            if verb not in _OTHER_VERBS and obj not in _NOT_OBJECTS and not _BY_MEANS.match(clause, m.start()):
                out.append(_named_call(verb, obj))
        for m in _RUNS.finditer(clause):
            if m.group("name").lower() not in _EVERYDAY_COMMANDS:
                out.append(_command(m.group("name")))
    return list(dict.fromkeys(out))
