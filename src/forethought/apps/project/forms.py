"""Checkable forms of rule shapes whose violation has a fixed code shape, filled from the rule's words.

Each form is a regex over the rule that fills slots (a table, the things kept out of a sink, a
naming case) and a pattern template that escapes what it embeds:
- **Table writes.** "never writes to the shipments table" forbids `UPDATE`/`INSERT INTO`/`DELETE
  FROM`/`MERGE INTO` that table.
- **Sinks.** "<things> never go into logs or Sentry", "no <thing> may ever go to Sentry, console or
  analytics" forbid a call to that sink (a logger, `console.*`, Sentry, analytics) whose arguments
  name one of the things on the same line; a thing is its head word, or its modifier when the head
  is a generic noun ("phone numbers" → phone).
- **Exact pins.** "exact version pins", "never ranges", "pinned exactly" forbid a version range
  (`>=`, `<`, `~=`, `^`, `~>`) on a dependency line (`version:`, `name = "..."`, `name>=1`).
- **Return types.** "type hints ... return type" forbids a one-line public Python `def` with no `->`.
- **Case of names.** "log keys are snake_case" forbids a camelCase string literal in a logging call;
  "field names are snake_case" in a Protobuf rule forbids a camelCase field declaration.
- **Imports.** "nothing/no package ... imports (from) X" forbids importing X (the check stage's
  scope decides where: "outside internal/store" exempts that folder).
Patterns use bounded repetition only and no nested quantifiers, so matching stays linear.
"""

from __future__ import annotations

import re

from forethought.apps.project.banned import import_line

__all__ = ["LOG_CALL", "form_patterns"]

_NEG = r"(?:never|not|no\s+longer|must\s+not|mustn'?t|may\s+not|cannot|can'?t|shouldn'?t|should\s+not)"
_TABLE = re.compile(
    _NEG + r"\s+(?:writes?|writing|updates?|inserts?|modif(?:y|ies)|deletes?\s+from)\s+(?:to\s+|into\s+|in\s+)?"
    r"(?:the\s+)?`?(?P<table>[A-Za-z_][\w.]{0,60})`?\s+table\b",
    re.I,
)
# "Claims are never hard-deleted", "invoice rows must not be deleted": no `DELETE FROM` / `TRUNCATE` of that table.
_NEVER_DELETED = re.compile(
    r"(?:^|[;.]\s*)(?:the\s+)?(?P<thing>[A-Za-z_]\w{2,40})\s+(?:rows?\s+|records?\s+)?(?:are|is|must|may|should|can)"
    r"\s+(?:never|not|no\s+longer)\s+(?:be\s+|ever\s+)?(?:hard[- ]|physically\s+)?(?:deleted|purged)\b",
    re.I,
)
_THINGS = r"(?P<things>[\w' -]{1,40}(?:(?:,\s*|\s+(?:and|or)\s+)[\w' -]{1,40}){0,5}?)"
_SINKS = r"(?P<sinks>[\w ,/-]{1,80})"
_INTO = r"\s+(?:ever\s+)?(?:go|goes|get|gets|be\s+sent|be\s+logged|end\s+up|is\s+sent|are\s+sent)\s+(?:in|into|to)\s+"
_SINK_RULES = (
    re.compile(r"\bno\s+" + _THINGS + r"\s+(?:may|must|can|should|will)" + _INTO + _SINKS, re.I),
    re.compile(r"(?:^|[;.]\s*)" + _THINGS + r"\s+(?:must\s+|may\s+|should\s+)?never" + _INTO + _SINKS, re.I),
    re.compile(
        r"(?:^|[;.]\s*)" + _THINGS + r"\s+(?:are|is)\s+(?:not\s+allowed|forbidden|banned|never\s+allowed)"
        r"\s+(?:in|into|to)\s+(?:the\s+)?" + _SINKS,
        re.I,
    ),
)
LOG_CALL = r"\b(?:\w{1,30}\.)?(?:logger|log|logging|slog|zlog|klog|console)\.\w{1,20}\s*\("
_SINK_CALLS = {
    "log": LOG_CALL, "logs": LOG_CALL, "logging": LOG_CALL, "logger": LOG_CALL, "console": LOG_CALL,
    "sentry": r"\b(?:Sentry|sentry_sdk|sentry)\.\w{1,30}\s*\(|\bcapture(?:Exception|Message|_exception|_message)\s*\(",
    "analytics": r"\b(?:analytics|track|amplitude|segment|mixpanel)(?:\.\w{1,30})?\s*\(",
}  # fmt: skip
_GENERIC = frozenset(
    {"number", "numbers", "data", "value", "values", "info", "details", "id", "ids", "field", "fields"}
)
_FILLER = frozenset({"a", "an", "the", "any", "full", "raw", "all", "their", "his", "her", "its", "our", "plain"})
_PINS = re.compile(
    r"\bexact(?:ly)?\s+(?:version\s+)?pin(?:s|ned)?\b|\bpinned\s+exactly\b|\bnever\s+(?:version\s+)?ranges\b", re.I
)
_RANGE = r"(?:>=|<=|~=|\^|~>|~|<|>)[ \t]*\d"
_PIN_LINES = (
    rf"(?im:^[ \t]*(?:-[ \t]*)?(?:version|revision)[ \t]*[:=][^\n]{{0,40}}?['\"\[ \t]{_RANGE})",
    rf"(?m:^[ \t]*['\"]?[@\w./-]{{1,80}}['\"]?[ \t]*[:=][ \t]*['\"]{_RANGE})",
    r"(?m:^[A-Za-z][\w.\[\]-]{0,80}[ \t]*(?:>=|~=|<|>)[ \t]*\d)",
)
_TYPE_HINTS = re.compile(r"\btype\s+hints?\b[^.;]{0,120}\breturn\s+types?\b|\bfully\s+typed\b", re.I)
_UNTYPED_DEF = r"(?m:^[ \t]*(?:async[ \t]+)?def[ \t]+(?!_)\w+\([^()\n]{0,300}\)[ \t]*:)"
_SNAKE = re.compile(
    r"\b(?P<what>(?:[\w-]+\s+){0,3}?)(?:keys|names|fields|field\s+names)\s+are\s+(?:in\s+)?snake_case\b", re.I
)
_CAMEL_LITERAL = r"['\"][a-z][a-z0-9]{0,30}[A-Z][A-Za-z0-9]{0,40}['\"]"
_PROTO_CAMEL = (
    r"(?m:^[ \t]*(?:repeated[ \t]+|optional[ \t]+)?[\w.]{1,60}[ \t]+[a-z][a-z0-9]{0,30}[A-Z]\w{0,40}[ \t]*=[ \t]*\d)"
)
_IMPORTS = re.compile(
    r"\b(?:nothing|nobody|no\s+(?:code|package|module|file|service|one))\b[^.;]{0,80}?\bimports?\s+(?:anything\s+)?"
    r"(?:from\s+)?`?(?P<name>@?[A-Za-z_][\w@./-]{0,100}[\w])`?",
    re.I,
)


# "signed only in CI with imgtool": the tool is forbidden where the rule's scope does not exempt it;
# "runs only in the worker via graphile-worker jobs" names the channel the work goes through, which
# the other side uses too (it enqueues the jobs): a tool followed by a noun of its own is not banned.
_ONLY_WITH = re.compile(
    r"\bonly\s+(?:in|inside|within|on)\s+(?:the\s+)?[\w./-]+\s+(?:with|using|via|through)\s+`?(?P<tool>[A-Za-z_][\w.-]{1,60}[\w])`?"
    r"(?!\s+(?:jobs?|tasks?|queues?|workers?|events?|messages?|calls?|requests?|pipelines?|hooks?)\b)",
    re.I,
)
_SCHEMA = re.compile(r"\b(?:schema|columns?|tables?|migrations?)\b", re.I)
_DESTRUCTIVE = re.compile(
    r"\b(?:never|no|not|don'?t)\s+(?:an?\s+|any\s+)?(?:renam\w*|drop\w*|remov\w*)(?:\s+(?:or|and|nor)\s+(?:an?\s+)?"
    r"(?:renam\w*|drop\w*|remov\w*))?",
    re.I,
)
_SCHEMA_OPS = {
    "rena": r"(?i:\brename[ \t]+(?:column|to|table)\b|\bRename(?:Field|Model|Index)\s*\(|\brename_(?:column|table)\b)",
    "drop": r"(?i:\bdrop[ \t]+(?:column|table)\b|\b(?:RemoveField|DeleteModel)\s*\("
            r"|\b(?:remove|drop)_(?:column|table)\b)",
}  # fmt: skip
_SCHEMA_OPS["remo"] = _SCHEMA_OPS["drop"]
# "no synonym logic in Python": defining something named after it (a def, class or variable) is that logic.
_LOGIC = re.compile(r"\bno\s+(?P<noun>[a-z][a-z-]{2,30})\s+(?:logic|code|handling)\s+in\s+\w+", re.I)
_ARGS_ONLY = re.compile(
    r"\b(?:take|takes|get|gets|receive|receives|accept|accepts)\s+only\s+[^.;]{0,80}?\b(?:as\s+)?(?:arguments|args|parameters)"
    r"[^.;]{0,20}?,?\s+never\s+"
    + _THINGS.replace("things", "things")
    + r"(?:\s+(?:in\s+)?(?:args|arguments))?(?:[.;]|$)",
    re.I,
)
_WILDCARDS = re.compile(r"\b(?:no|never|not)\b[^.;]{0,60}\bleading\s+wildcards?\b", re.I)
_LEADING_WILDCARD = r"(?i:(?:wildcard|query|like|search|match)[^\n]{0,200}(?<![\w])[fr]?['\"][*%][^'\"\n]{1,200}['\"])"


def _word(name: str) -> str:
    return r"(?<![\w$@/-])" + re.escape(name) + r"(?![\w-])"


def _tables(rule: str) -> list[str]:
    out = []
    for m in _TABLE.finditer(rule):
        table = re.escape(m.group("table"))
        out.append(rf"(?i:\b(?:update|insert[ \t]+into|delete[ \t]+from|merge[ \t]+into)[ \t]+[`\"]?{table}\b)")
    return out


def _never_deleted(rule: str) -> list[str]:
    out = []
    for m in _NEVER_DELETED.finditer(rule):
        thing = m.group("thing").lower()
        names = "|".join(re.escape(n) for n in dict.fromkeys([thing, thing.removesuffix("s")]))
        out.append(rf"(?i:\b(?:delete[ \t]+from|truncate(?:[ \t]+table)?)[ \t]+(?:\w{{1,40}}\.)?[`\"]?(?:{names})\b)")
    return out


def _thing_word(thing: str) -> str | None:
    code: list[str] = re.findall(r"[A-Za-z][\w.]*[_.][\w.]*[A-Za-z0-9]|[a-z]+[A-Z]\w*", thing)
    if code:  # an identifier is the thing itself (`admission_id`, not every `admission_*`)
        return r"(?<![\w.])" + re.escape(code[-1]) + r"(?!\w)"
    words: list[str] = [w for w in re.findall(r"[A-Za-z]+", thing) if w.lower() not in _FILLER]
    if not words:
        return None
    head = words[-1].lower()
    if head in _GENERIC and len(words) >= 2:
        head = words[-2].lower()
    if head in _GENERIC or len(head) < 3:
        return None
    if head.endswith("ies") and len(head) > 4:
        return re.escape(head[:-3]) + "(?:y|ies)"
    singular: str = head[:-1] if head.endswith("s") and not head.endswith("ss") and len(head) > 3 else head
    return re.escape(singular)


def _sinks(rule: str) -> list[str]:
    out: list[str] = []
    for rx in _SINK_RULES:
        for m in rx.finditer(rule):
            things = [w for t in re.split(r",\s*|\s+(?:and|or)\s+", m.group("things")) if (w := _thing_word(t))]
            sinks = {_SINK_CALLS[s] for s in re.findall(r"[a-z]+", m.group("sinks").lower()) if s in _SINK_CALLS}
            if things:
                word = "|".join(dict.fromkeys(things))
                out += [rf"(?:{call})[^\n]{{0,200}}(?<!__)(?i:{word})" for call in sorted(sinks)]
    return out


def _names_case(rule: str) -> list[str]:
    out = []
    for m in _SNAKE.finditer(rule):
        what = m.group("what").lower()
        if "log" in what:
            out.append(rf"(?:{LOG_CALL})[^\n]{{0,200}}{_CAMEL_LITERAL}")
        elif "proto" in what or re.search(r"\bproto(?:buf|s)?\b", rule, re.I):
            out.append(_PROTO_CAMEL)
    return out


def _only_with(rule: str) -> list[str]:
    return [_word(m.group("tool")) for m in _ONLY_WITH.finditer(rule)]


def _schema(rule: str) -> list[str]:
    if not _SCHEMA.search(rule):
        return []
    ops = {
        op.lower()[:4]
        for m in _DESTRUCTIVE.finditer(rule)
        for op in re.findall(r"renam\w*|drop\w*|remov\w*", m.group(0), re.I)
    }
    return [_SCHEMA_OPS[op] for op in sorted(ops) if op in _SCHEMA_OPS]


def _logic_in(rule: str) -> list[str]:
    out = []
    for m in _LOGIC.finditer(rule):
        noun = m.group("noun").lower()
        noun = noun[:-1] if noun.endswith("s") and len(noun) > 4 else noun
        out.append(rf"(?im:^[ \t]*(?:def[ \t]+|class[ \t]+|function[ \t]+|(?:const|let|var)[ \t]+)?"
                   rf"\w{{0,40}}{re.escape(noun)}\w{{0,40}}[ \t]*(?:=(?!=)|\(|:))")  # fmt: skip
    return out


def _arguments(rule: str) -> list[str]:
    out = []
    for m in _ARGS_ONLY.finditer(rule):
        things = [w for t in re.split(r",\s*|\s+(?:and|or)\s+", m.group("things")) if (w := _thing_word(t))]
        if things:
            word = "|".join(dict.fromkeys(things))
            out += [rf"(?m:^[ \t]*(?:async[ \t]+)?def[ \t]+\w+\([^)\n]{{0,300}}(?<!__)(?i:{word}))",
                    rf"\bargs[ \t]*=[ \t]*[(\[][^\n]{{0,300}}(?<!__)(?i:{word})"]  # fmt: skip
    return out


def form_patterns(rule: str) -> list[str]:
    """Forbid patterns the forms above derive from `rule` ([] when none fits)."""
    out = _tables(rule) + _sinks(rule) + _names_case(rule) + _only_with(rule) + _schema(rule) + _logic_in(rule)
    out += _arguments(rule) + _never_deleted(rule)
    if _WILDCARDS.search(rule):
        out.append(_LEADING_WILDCARD)
    if _PINS.search(rule):
        out += list(_PIN_LINES)
    if _TYPE_HINTS.search(rule):
        out.append(_UNTYPED_DEF)
    out += [import_line(m.group("name")) for m in _IMPORTS.finditer(rule)]
    return out
