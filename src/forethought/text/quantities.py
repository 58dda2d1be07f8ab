"""Quantities: the values a rule fixes and the values a line of code sets (slot filling for check).

A rule's sentence is read for
- a number with a unit ("1 KiB", "72 hours", "at most 120 ms", "35%") or a counted noun ("3 retries");
- a setting written `key=value` ("max-age=3600");
- a version after a tool's name ("Rust 1.80", "Node 20", "pinned to v3.7.0").
Each carries its bound (exact, at most, at least), whether the rule rules it out ("30 days no
longer", "not 1.81+", "instead of 5") and its subject: the stems of the words around it, with the
compound of a `key-name` and the initials of short phrases ("state of charge" → `soc`).

A line of code is read for the values it sets: `ChunkSize = 4096`, `canary_hours: 48`,
`200 * time.Millisecond`, `INTERVAL '30 days'`, `max-age=86400`, `soc < 0.25` (a threshold),
`rust-toolchain@1.75`, `node:18-alpine`. The unit comes from the value ("30d", "5s") or from the
key (`_hours`, `Ms`, `Bytes`, a lone `_s`); a value with neither is read in the rule's own unit.

Values are normalised to one base unit per dimension (bytes, seconds, percent, a count) so that
"1 KiB" and 1024, "30d" and "30 days" are the same value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from forethought.text.comments import comment_line
from forethought.text.identifiers import identifier_parts
from forethought.text.words import STOPWORDS, stem, vocabulary

__all__ = ["LineValue", "Quantity", "line_values", "rule_quantities"]

Bound = Literal["exact", "max", "min"]

_UNITS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("b", "byte", "bytes"), ("bytes", 1.0)),
    **dict.fromkeys(("kb", "kib", "kbyte", "kbytes", "kilobyte", "kilobytes"), ("bytes", 1024.0)),
    **dict.fromkeys(("mb", "mib", "megabyte", "megabytes"), ("bytes", 1024.0**2)),
    **dict.fromkeys(("gb", "gib", "gigabyte", "gigabytes"), ("bytes", 1024.0**3)),
    **dict.fromkeys(("ns", "nanosecond", "nanoseconds"), ("seconds", 1e-9)),
    **dict.fromkeys(("us", "µs", "microsecond", "microseconds"), ("seconds", 1e-6)),
    **dict.fromkeys(("ms", "msec", "msecs", "millis", "millisecond", "milliseconds"), ("seconds", 1e-3)),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("seconds", 1.0)),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), ("seconds", 60.0)),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("seconds", 3600.0)),
    **dict.fromkeys(("d", "day", "days"), ("seconds", 86400.0)),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), ("seconds", 604800.0)),
    **dict.fromkeys(("month", "months"), ("seconds", 2592000.0)),
    **dict.fromkeys(("y", "yr", "yrs", "year", "years"), ("seconds", 31536000.0)),
    **dict.fromkeys(("%", "percent", "pct", "percentage"), ("percent", 1.0)),
    "hz": ("hertz", 1.0),
    "khz": ("hertz", 1e3),
    "mhz": ("hertz", 1e6),
    "bps": ("bits/s", 1.0),
    "kbps": ("bits/s", 1e3),
    "mbps": ("bits/s", 1e6),
    "gbps": ("bits/s", 1e9),
}
# Byte units that mean 1000 as often as 1024 ("a 1 MB limit" set as 1_000_000): both readings hold.
_DECIMAL_TOO = {"kb": 1e3, "kbyte": 1e3, "kbytes": 1e3, "kilobyte": 1e3, "kilobytes": 1e3, "mb": 1e6, "megabyte": 1e6,
                "megabytes": 1e6, "gb": 1e9, "gigabyte": 1e9, "gigabytes": 1e9}  # fmt: skip
# Compact values only ("5m", "100m", "512k"): read both ways, the rule's dimension decides (a
# minute or a megabyte: nginx writes `100m` for sizes); in prose "m" is a metre as often.
_COMPACT: dict[str, tuple[tuple[str, float], ...]] = {
    "m": (("seconds", 60.0), ("bytes", 1024.0**2)), "k": (("bytes", 1024.0),), "g": (("bytes", 1024.0**3),),
}  # fmt: skip
# Nouns a bare number counts ("3 retries", "2 reviewers"): the noun is the quantity's subject too.
_COUNTED = vocabulary(
    "times retries retry attempts attempt tries replicas replica workers worker threads thread connections "
    "connection reviewers reviewer approvals approval items rows requests calls pods instances shards "
    "partitions digits characters chars lines levels arguments args jobs processes nodes columns files "
    "steps hops frames entries pages records messages events slots failures errors shards sessions users"
)
_GO_UNITS = {"Nanosecond": 1e-9, "Microsecond": 1e-6, "Millisecond": 1e-3, "Second": 1.0, "Minute": 60.0,
             "Hour": 3600.0}  # fmt: skip
_MAX = re.compile(r"(?:at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|never\s+more\s+than|maximum(?:\s+of)?"
                  r"|max(?:imum)?|under|below|less\s+than|within|<=?|≤)\s*$", re.I)  # fmt: skip
_MIN = re.compile(r"(?:at\s+least|no\s+less\s+than|not\s+less\s+than|minimum(?:\s+of)?|min|more\s+than|over|above"
                  r"|>=?|≥)\s*$", re.I)  # fmt: skip
_MIN_AFTER = re.compile(r"^\s*(?:\+|or\s+(?:more|newer|later|higher|above))", re.I)
_OUT_BEFORE = re.compile(r"\b(?:not|no|never|instead\s+of|rather\s+than|from|was|were|used\s+to\s+be|replac\w*"
                         r"|dropp\w*|remov\w*|old)\b[^\d]{0,30}$", re.I)  # fmt: skip
_OUT_AFTER = re.compile(r"^[^;,()]{0,40}?\b(?:no\s+longer|anymore|any\s+more|is\s+gone|was\s+dropped|is\s+deprecated"
                        r"|not\s+allowed|is\s+banned|is\s+out|was\s+removed|led\s+to|caused|broke|(?:is|was|were|are)\s+too|failed"
                        r"|did\s+not\s+work|didn'?t\s+work)\b", re.I)  # fmt: skip
_CLAUSE = re.compile(r"[;()—]|,\s|\.\s|\s-\s|\b(?:but|whereas|while)\b", re.I)
_NUMBER = r"(?<![\w.\-/:#@$])(?P<num>\d{1,3}(?:[,_]\d{3})+|\d+(?:\.\d+)?)"
_RULE_UNIT = re.compile(_NUMBER + r"(?:\s*|-)(?P<unit>%|[A-Za-zµ]+)?(?![\w])")
_NOUNS = re.compile(r"(?:\s+[A-Za-z-]+){1,2}")
_KEY_VALUE = re.compile(r"(?<![\w-])(?P<key>[A-Za-z][\w]*(?:[-_][A-Za-z]\w*)+|[A-Za-z]\w+)(?:\s*=\s*|:\s+)"
                        r"(?P<num>\d+(?:\.\d+)?)(?P<unit>[A-Za-z%]+)?(?!\w|\.\d)")  # fmt: skip
_VERSION = r"v?(?P<ver>\d+(?:\.\d+){0,2})(?P<plus>\+)?(?!\w|\.\d|\s*%)"
# A tool's name before its version: capitalised ("Node 20") or code-like (`go-redis v9`), or any
# name written `name@1.2` / `name==1.2`; lower-case prose ("tick at 60") names no version.
_RULE_VERSION = re.compile(
    r"(?<![\w./-])(?:(?P<name>[A-Z][\w.+-]*[A-Za-z]|[a-z][\w+]*[-_.][\w.+-]*[A-Za-z])(?:\s+(?:is\s+)?pinned\s+(?:to|at)\s+"
    r"|\s+(?:version\s+)?|@|==)|(?P<tool>[a-z][\w.+-]*[a-z])(?:@|==)|(?P<neg>not|no|never)\s+)" + _VERSION
)
_LINE_VERSION = re.compile(
    r"(?<![\w.-])(?P<name>[A-Za-z][\w./-]*[A-Za-z])[\"']?\s*(?:@|==|~=|:=|=|:|\s)\s*[\"']?[\^~>=<]*\s*v?"
    r"(?P<ver>\d+(?:\.\d+){1,2}|\d+(?=[-\"'\s]|$))"
)
_LINE_ASSIGN = re.compile(
    r"(?<![\w.-])(?P<key>[A-Za-z_$][\w$.]*(?:-[A-Za-z]\w*)*)[\"'\]]?(?:\s*:\s*[A-Za-z_][\w<>\[\]]*(?=\s*=))?"
    r"\s*(?P<op>:=|=>|==|<=|>=|=|:|<|>)\s*[\"']?"
    r"(?P<num>\d[\d_]*(?:\.\d+)?)(?P<unit>[A-Za-zµ%]+)?(?![\w.])(?P<times>(?:\s*(?:\*|<<)\s*\d+(?![\w.]))*)"
    r"(?:\s*\*\s*time\.(?P<go>Nanosecond|Microsecond|Millisecond|Second|Minute|Hour))?"
)
_LINE_UNIT = re.compile(_NUMBER + r"\s*(?P<unit>%|[A-Za-zµ]+)(?![\w])")
# Words a subject never matches on: stop words, units, bounds, and the generic words of settings.
_GENERIC = (
    STOPWORDS
    | frozenset(_UNITS)
    | vocabulary(
        "size max maximum min minimum limit limits count number num value values total default const let var val "
        "self this config conf setting settings env new int float type get set must always never should keep kept "
        "use used uses run runs every each only exactly least most export static final public private def func "
        "return if elif else true false null none string str per rate level time timeout timeouts interval period "
        "duration ttl age length len"
    )
)
# The units a key may end with (`timeout_ms`, `canary_hours`, `MAX_BODY_BYTES`); not `min`, `d`; `s` only alone.
_KEY_UNITS = vocabulary(
    "ms msec millis sec secs seconds minutes mins hours hrs days weeks months years bytes kb kib mb mib gb gib pct "
    "percent percentage hz"
)
# A key ending in a lone `_s` (`PAGE_DELAY_S`, `timeout_s`) counts seconds; a lone `_m` or `_d` could be
# minutes or metres, days or a type suffix, and stays unread.
_SECONDS_KEY = re.compile(r"[a-z\d][_-][sS]$|[A-Z\d][_-]S$")
# Generic words that still name what a value is about when the key says nothing else (`timeout=5`).
_KEEP_SUBJECT = vocabulary("timeout ttl age interval retention concurrency")
_TIME_OUT = re.compile(r"\btim(?:e|ed|es)\s+out\b", re.I)  # "times out after 10 s" is a timeout
_MEASURED = re.compile(r"\b(?:took|takes|taking|measured|averag\w*|peaked|reached|hit|spent)\s+(?:\w+\s+)?$", re.I)
_NEGATED_BOUND = re.compile(r"\b(?:not|never|no|nothing|nobody|cannot|can't|mustn't|may\s+not|must\s+not)\b", re.I)


@dataclass(frozen=True)
class Quantity:
    """A value a rule fixes (or rules out)."""

    text: str
    dimension: str  # bytes | seconds | percent | hertz | bits/s | count | plain | version
    value: float
    bound: Bound
    ruled_out: bool
    subject: frozenset[str]
    version: tuple[int, ...] = ()
    decimal: float | None = None  # "1 MB" read as 1,000,000 too (the value is the binary 1,048,576)


@dataclass(frozen=True)
class LineValue:
    """A value a line of code sets: its key's words, its unit (None: as the rule counts it)."""

    text: str
    key: frozenset[str]
    dimension: str | None
    value: float
    threshold: bool  # compared, not assigned (`soc < 0.25`): it must be one of the rule's values
    compounds: frozenset[str] = frozenset()  # the key as one word (`maxage`), when it has parts
    version: tuple[int, ...] = ()
    # Whether `key` is the line's words around the value rather than a key of its own (`INTERVAL
    # '30 days'`, `timedelta(days=30)`): then two shared words are enough (`check_values`).
    context: bool = False
    raw: float | None = None  # the number as written, before its unit (a rule's bare number compares to it)
    head: str | None = None  # the key's last word that names something (`client_max_body_size` → body)


def _number(text: str) -> float:
    return float(text.replace(",", "").replace("_", ""))


def _product(first: str, rest: str) -> float:
    """`512 * 1024`, `1 << 20`: the constant a line writes as arithmetic."""
    value = _number(first)
    for op, n in re.findall(r"(\*|<<)\s*(\d+)", rest or ""):
        value = value * int(n) if op == "*" else value * 2 ** min(int(n), 64)
    return value


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def _unit(unit: str | None, *, compact: bool) -> tuple[str, float] | None:
    return next(iter(_units(unit, compact=compact)), None)


def _units(unit: str | None, *, compact: bool) -> tuple[tuple[str, float], ...]:
    """Every reading of a unit: one, or for a compact `m` a minute and a megabyte."""
    if not unit:
        return ()
    u = unit.lower()
    if compact and u in _COMPACT:
        return _COMPACT[u]
    return (_UNITS[u],) if u in _UNITS else ()


def _stems(text: str, *, compounds: bool = True) -> set[str]:
    out: set[str] = set()
    for token in re.findall(r"[A-Za-z][\w$.:/-]*", text):
        parts = identifier_parts(token)
        out.update(stem(p) for p in parts if p not in _GENERIC and len(p) > 1 and not p.isdigit())
        if compounds and len(parts) > 1 and "." not in token:
            out.add("".join(parts))  # `max-age`, `canary_hours`: the compound names the setting
    return out


def _initials(text: str) -> set[str]:
    ws = re.findall(r"[A-Za-z]+", text.lower())
    return {"".join(w[0] for w in ws[i : i + n]) for n in (3, 4) for i in range(len(ws) - n + 1)}


def _subject(clause: str, start: int, end: int, extra: str = "") -> frozenset[str]:
    """What a quantity is about: its clause's words before it, and three after."""
    before = " ".join(re.findall(r"\S+", clause[:start]))
    after = " ".join(re.findall(r"\S+", clause[end:])[:3])
    found = _stems(before) | _stems(after) | _stems(extra)
    found |= {stem(w) for w in re.findall(r"[a-z]+", f"{before} {after}".lower()) if stem(w) in _KEEP_SUBJECT}
    if re.search(r"\bwithin$", before, re.I):
        found.add("window")  # "again within 5 minutes": what a setting calls its window
    return frozenset(found | _initials(after))


def _bound(before: str, after: str) -> Bound:
    """At most / at least / exact; a negation before the bound turns it ("never more than 150 ms"
    is at most, "may not drop below 80%" at least; "cannot re-enter within 5 minutes" fixes a window
    of exactly 5 minutes)."""
    bound: Bound = "exact"
    if (m := _MAX.search(before)) or (m := _MIN.search(before)):
        bound = "max" if m.re is _MAX else "min"
        if _NEGATED_BOUND.search(before[: m.start()]) and not re.search(
            r"\b(?:no|not)\s+(?:more|less)\s+than\s*$", before, re.I
        ):
            within = m.group(0).strip().lower() == "within"  # "cannot re-enter within 5 minutes": a window
            bound = "exact" if within else "min" if bound == "max" else "max"
    elif _MIN_AFTER.search(after):
        bound = "min"
    return bound


def _ruled_out(before: str, after: str, bound: Bound) -> bool:
    near = before[-40:]
    return (bound == "exact" and _OUT_BEFORE.search(near) is not None) or _OUT_AFTER.search(after) is not None


def _clauses(sentence: str) -> list[str]:
    out, last = [], 0
    for m in _CLAUSE.finditer(sentence):
        out.append(sentence[last : m.start()])
        last = m.end()
    return [c for c in [*out, sentence[last:]] if c.strip()]


def rule_quantities(statement: str) -> list[Quantity]:
    """The values `statement` fixes or rules out (see the module doc)."""
    found: list[Quantity] = []
    last_name = ""
    for clause in _clauses(_TIME_OUT.sub("timeout", statement)):
        taken: list[tuple[int, int]] = []
        for m in _KEY_VALUE.finditer(clause):
            unit = _unit(m["unit"], compact=True)
            if m["unit"] and unit is None:
                continue
            dim, scale = unit or ("plain", 1.0)
            before, after = clause[: m.start()], clause[m.end() :]
            bound = _bound(before, after)
            subject = frozenset(_stems(m["key"]) | {"".join(identifier_parts(m["key"]))})
            found.append(Quantity(m.group(0), dim, _number(m["num"]) * scale, bound,
                                  _ruled_out(before, after, bound), subject))  # fmt: skip
            taken.append(m.span())
        for m in _RULE_UNIT.finditer(clause):
            if any(s <= m.start() < e for s, e in taken):
                continue
            unit = _unit(m["unit"], compact=False) if m["unit"] else None
            following = _NOUNS.match(clause, m.end())
            nouns = [m["unit"] or "", *(following.group(0).split() if following else ())]
            counted = any(n.lower() in _COUNTED for n in nouns[:3])  # "3 primary shards"
            bounded = _MAX.search(clause[: m.start()]) or _MIN.search(clause[: m.start()])
            bare = unit is None and not counted and bounded is not None and (m["unit"] or "").lower() not in _GENERIC
            if unit is None and not counted and not bare:
                continue  # "page size is at most 100" fixes a bare number; "2 services" fixes nothing
            if _MEASURED.search(clause[: m.start()]):
                continue  # "took about 2 s at 120 robots": what was measured, not a value fixed
            dim, scale = unit or (("count", 1.0) if counted else ("plain", 1.0))
            before, after = clause[: m.start()], clause[m.end() :]
            bound = _bound(before, after)
            extra = " ".join(nouns[:3]) if counted or bare else ""
            subject, out = _subject(clause, m.start(), m.end(), extra), _ruled_out(before, after, bound)
            earlier = [q for q in found if q.dimension == dim and not q.ruled_out]
            if out and earlier and not (subject - _GENERIC - {"longer"}):  # "(60 days no longer)"
                subject = earlier[-1].subject
            decimal = _DECIMAL_TOO.get((m["unit"] or "").lower())
            found.append(Quantity(m.group(0).strip(), dim, _number(m["num"]) * scale, bound, out, subject,
                                  decimal=_number(m["num"]) * decimal if decimal else None))  # fmt: skip
            taken.append(m.span())
        for m in _RULE_VERSION.finditer(clause):
            if any(s <= m.start("ver") < e for s, e in taken):
                continue
            name = m["name"] or m["tool"] or m["neg"]
            following = re.match(r"\s*([A-Za-z%]+)", clause[m.end() :])
            if following and (following[1].lower() in _UNITS or following[1].lower() in _COUNTED):
                continue  # "72 hours", "3 retries": a quantity, not a version
            if not m["tool"] and (name.lower() in _GENERIC or name.lower() in _COUNTED):
                if not last_name or not m["neg"]:
                    continue
                name = last_name  # "Rust 1.80 (not 1.81+)": the version ruled out is the same tool's
            last_name = name
            before, after = clause[: m.start("ver")], clause[m.end("ver") :]
            bound = "min" if m["plus"] or _MIN_AFTER.search(after) else _bound(before, after)
            out = _ruled_out(before, after, "exact") or bool(re.search(r"\b(?:not|no|never)\s*$", clause[: m.start()]))
            found.append(Quantity(m.group(0), "version", 0.0, bound, out, frozenset(_stems(name)),
                                  _version(m["ver"])))  # fmt: skip
    return found


def _key_parts(key: str) -> list[str]:
    return [p for p in identifier_parts(key) if not p.isdigit()]


def _compounds(key: str) -> frozenset[str]:
    """The key as one word, whole and its last dotted part (`Application.targetFrameRate`)."""
    out = set()
    for name in {key, key.rsplit(".", 1)[-1]}:
        parts = _key_parts(name)
        if len(parts) > 1:
            out.add("".join(parts))
    return frozenset(out)


def line_values(line: str) -> list[LineValue]:
    """The values one line of code sets or compares against (none for a comment line)."""
    if comment_line(line):
        return []
    found: list[LineValue] = []
    taken: list[tuple[int, int]] = []
    for m in _LINE_ASSIGN.finditer(line):
        parts = _key_parts(m["key"])
        readings: tuple[tuple[str, float], ...] = (("seconds", _GO_UNITS[m["go"]]),) if m["go"] else ()
        readings = readings or _units(m["unit"], compact=True)
        if m["unit"] and not readings:
            continue
        if not readings:  # the key may say the unit: `canary_hours`, `timeoutMs`, `MAX_BODY_BYTES`
            readings = _units(parts[-1], compact=False) if parts and parts[-1] in _KEY_UNITS else ()
            readings = readings or ((("seconds", 1.0),) if _SECONDS_KEY.search(m["key"]) else ())
        key, context = set(_stems(m["key"])), False
        if all(p in _UNITS or p in _GENERIC for p in parts):  # `timeout=5`; `timedelta(days=30)`: the line says what
            key = {stem(p) for p in parts if stem(p) in _KEEP_SUBJECT}
            key, context = key or (key | _stems(line[: m.start()], compounds=False)), not key
        compounds = _compounds(m["key"])
        named = [stem(p) for p in parts if p not in _GENERIC and len(p) > 1]
        head = named[-1] if named and not context else None
        value, threshold = _product(m["num"], m["times"]), m["op"] in {"<", ">", "<=", ">=", "=="}
        for dim, scale in readings or ((None, 1.0),):
            found.append(LineValue(m.group(0), frozenset(key - compounds), dim, value * scale, threshold, compounds,
                                   context=context, raw=value, head=head))  # fmt: skip
        taken.append(m.span())
    for m in _LINE_UNIT.finditer(line):
        readings = _units(m["unit"], compact=True)
        if not readings or any(s <= m.start() < e for s, e in taken):
            continue
        for dim, scale in readings:
            found.append(LineValue(m.group(0), frozenset(_stems(line[: m.start()], compounds=False)), dim,
                                   _number(m["num"]) * scale, False, context=True))  # fmt: skip
    for m in _LINE_VERSION.finditer(line):
        if "/" in m["name"] and "@v" in m.group(0):  # `uses: actions/setup-node@v4`: the action's own release
            continue
        found.append(LineValue(m.group(0), frozenset(_stems(m["name"])), "version", 0.0, False,
                               version=_version(m["ver"])))  # fmt: skip
    return found
