"""Check patterns anyone with a key may set, compiled and run so that none can stall the server.

A record's `check.forbid` / `check.require` patterns are regular expressions from users (or
derived from their words). Python's `re` backtracks without limit and holds the GIL while it does,
so one crafted pattern (`(a|aa)+b`) on a short draft could stop every request of every workspace.
Every check pattern is therefore compiled and run here, and only here, with the `regex` engine:
the syntax of `re`, but each run

- releases the GIL while it matches (`concurrent=True`), so other requests go on meanwhile, and
- stops at a time budget (`PatternTimeout`): a `Budget` per checked draft, shared by all its
  patterns, and a cap per pattern run, so one slow pattern cannot spend the others' time.

A pattern that ran out of time once is remembered (a bounded table) and skipped with its reason in
later checks, so a slow pattern costs its budget once per process, not once per request.

`vet(pattern)` is the check at write time (API, import, derived patterns): the pattern must compile
and must finish on inputs built to make backtracking explode (runs of the characters the pattern
itself names, then a character that fails the match) within a small budget, so exponential and
cubic patterns are refused when they are set, with the reason, rather than discovered when they
run. A quadratic one (`^(a+)+$`) passes: on a long draft the run budget stops it.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise

import regex

from forethought.errors import InvalidInput

__all__ = [
    "MAX_PATTERN_CHARS",
    "PATTERN_RUN_SECONDS",
    "Budget",
    "Pattern",
    "PatternTimeout",
    "compile_pattern",
    "vet",
]

MAX_PATTERN_CHARS = 500
PATTERN_RUN_SECONDS = 0.25  # one pattern on one draft
CHECK_SECONDS = 1.0  # every pattern of one checked draft together
VET_SECONDS = 0.05  # one adversarial probe at write time
_PROBE_LENGTHS = (32, 512)  # exponential blow-ups show at 32, cubic ones at 512; quadratic ones pass
_REMEMBERED = 1024


class PatternTimeout(Exception):
    """A pattern ran past its budget (the match was stopped)."""


@dataclass
class Budget:
    """The time all patterns of one checked draft may take together."""

    seconds: float = CHECK_SECONDS
    _start: float = field(default_factory=time.monotonic)

    def remaining(self) -> float:
        return self.seconds - (time.monotonic() - self._start)


@dataclass(frozen=True, slots=True)
class Pattern:
    """A compiled check pattern; `finditer` yields (start, end) spans of its matches."""

    source: str
    compiled: regex.Pattern[str]

    def finditer(self, text: str, budget: Budget | None = None) -> Iterator[tuple[int, int]]:
        """Spans of the matches in `text`, within `budget` (and the per-run cap) or `PatternTimeout`."""
        reason = _slow.get(self.source)
        if reason is not None:
            raise PatternTimeout(reason)
        seconds = min(PATTERN_RUN_SECONDS, budget.remaining() if budget is not None else PATTERN_RUN_SECONDS)
        if seconds <= 0:
            raise PatternTimeout("not run: the check's time for patterns was spent")
        try:
            for m in self.compiled.finditer(text, timeout=seconds, concurrent=True):
                yield m.span()
        except TimeoutError:
            why = f"stopped after {seconds:.2f} s: it backtracks too much to run on drafts"
            _slow.put(self.source, why)
            raise PatternTimeout(why) from None

    def search(self, text: str, budget: Budget | None = None) -> tuple[int, int] | None:
        return next(self.finditer(text, budget), None)


class _Slow:
    """Patterns that ran out of time, with why (most recent `_REMEMBERED`), shared by threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[str, str] = OrderedDict()

    def get(self, source: str) -> str | None:
        with self._lock:
            return self._items.get(source)

    def put(self, source: str, reason: str) -> None:
        with self._lock:
            self._items[source] = reason
            self._items.move_to_end(source)
            while len(self._items) > _REMEMBERED:
                self._items.popitem(last=False)


_slow = _Slow()
_compiled: OrderedDict[str, Pattern | str] = OrderedDict()
_compiled_lock = threading.Lock()


def compile_pattern(pattern: str) -> Pattern | str:
    """The compiled pattern (multi-line: `^` and `$` at each line), or why it cannot run."""
    with _compiled_lock:
        hit = _compiled.get(pattern)
    if hit is not None:
        return hit
    result: Pattern | str
    if len(pattern) > MAX_PATTERN_CHARS:
        result = f"longer than {MAX_PATTERN_CHARS} characters"
    else:
        try:
            result = Pattern(pattern, regex.compile(pattern, regex.MULTILINE | regex.VERSION0))
        except (regex.error, ValueError, OverflowError, RecursionError) as exc:
            result = f"does not compile: {exc}"
    with _compiled_lock:
        _compiled[pattern] = result
        while len(_compiled) > _REMEMBERED:
            _compiled.popitem(last=False)
    return result


def _probes(pattern: str) -> Iterator[str]:
    """Inputs that make a backtracking pattern explode: long runs of characters it names or its
    classes match, ending in characters that fail it."""
    named = [c for c in dict.fromkeys(pattern) if c.isalnum() or c in " ,.-_:/'\"=<>@"]
    alphabet = list(dict.fromkeys([*named[:12], "a", "1", " ", "x"]))
    for n in _PROBE_LENGTHS:
        for c in alphabet:
            yield c * n + "\x00!"
        for a, b in pairwise(alphabet):
            yield (a + b) * (n // 2) + "\x00!"
        yield "\n".join(alphabet) * (n // len(alphabet)) + "\x00"


_vetted: OrderedDict[str, None] = OrderedDict()  # patterns that passed: review vets derived ones per candidate


def vet(pattern: str) -> Pattern:
    """The compiled pattern, or `InvalidInput` saying why it may not be set."""
    compiled = compile_pattern(pattern)
    if isinstance(compiled, str):
        raise InvalidInput(f"check pattern {pattern[:80]!r} {compiled}")
    with _compiled_lock:
        if pattern in _vetted:
            return compiled
    for probe in _probes(pattern):
        try:
            for _ in compiled.compiled.finditer(probe, timeout=VET_SECONDS, concurrent=True):
                pass
        except TimeoutError:
            raise InvalidInput(
                f"check pattern {pattern[:80]!r} backtracks catastrophically (it took over {VET_SECONDS} s on "
                f"{len(probe)} characters); rewrite it without ambiguous repetition such as (a|aa)+ or (a+)+"
            ) from None
    with _compiled_lock:
        _vetted[pattern] = None
        while len(_vetted) > _REMEMBERED:
            _vetted.popitem(last=False)
    return compiled
