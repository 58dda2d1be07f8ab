"""Check patterns cannot stall the server: catastrophic ones are refused when set, and any pattern
that still backtracks at run time is stopped at its budget while other threads go on."""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forethought.domain.limits import check_patterns
from forethought.domain.patterns import Budget, PatternTimeout, compile_pattern, vet
from forethought.domain.records import CheckPatterns
from forethought.errors import InvalidInput

# Shapes that backtrack exponentially or cubically on a run of one character followed by one that
# fails the match.
CATASTROPHIC = [
    r"(a+)+b",
    r"(a|aa)+b",
    r"(a+)+$",
    r"(x+x+)+y",
    r"(\w+\s?)+$",
    r"^(([a-z])+.)+[A-Z]([a-z])+$",
    r"([a-zA-Z]+)*\d",
    r"(.*a){20}b",
    r"(.+)+\d{3}$",
]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_a_catastrophic_pattern_is_refused_when_it_is_set(pattern: str) -> None:
    with pytest.raises(InvalidInput, match="backtracks catastrophically"):
        check_patterns(CheckPatterns(forbid=(pattern,)))
    with pytest.raises(InvalidInput, match="backtracks catastrophically"):
        check_patterns(CheckPatterns(require=(pattern,)))


@pytest.mark.parametrize(
    "pattern", [r"\bmoment\b", r"(?<![\w-])lodash(?![\w-])", r"fetch\(", r"(?i:x-api-key)", r"^import\s+\w+"]
)
def test_ordinary_patterns_pass(pattern: str) -> None:
    assert check_patterns(CheckPatterns(forbid=(pattern,))).forbid == (pattern,)


def test_a_broken_or_long_pattern_says_why() -> None:
    with pytest.raises(InvalidInput, match="does not compile"):
        vet("new PrismaClient(")
    assert compile_pattern("x" * 501) == "longer than 500 characters"


_ATOM = st.sampled_from(["a", r"\w", "[a-z]", ".", r"[^,]", r"\S", "[ab]"])
_SHAPE = st.sampled_from(["({0}+)+", "({0}|{0}{0})+", "({0}*{0}+)+", "(?:{0}+{0})+", "({0}+{0}?)*", "(?:{0}|{0}?)+"])
_TAIL = st.sampled_from(["b", "!", r"\d", "$", "@x", ""])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(atom=_ATOM, shape=_SHAPE, tail=_TAIL, head=st.sampled_from(["", "^", r"\b", "(?<!z)"]), n=st.integers(20, 3000))
def test_no_generated_pattern_runs_past_its_budget(atom: str, shape: str, tail: str, head: str, n: int) -> None:
    """Whatever nested repetition is set, it is refused, or it finishes, or it is stopped and
    reported — never left to run."""
    pattern = head + shape.format(atom) + tail
    try:
        compiled = vet(pattern)
    except InvalidInput as exc:
        assert "backtracks" in str(exc) or "compile" in str(exc)
        return
    draft = "a" * n + "\x00!"
    try:
        compiled.search(draft, Budget(0.3))
    except PatternTimeout as exc:
        assert "backtracks" in str(exc) or "spent" in str(exc)


def test_a_slow_pattern_is_stopped_other_threads_run_meanwhile_and_it_is_skipped_afterwards() -> None:
    compiled = compile_pattern(r"(a|aa)+b")  # stored before vetting existed, say: it is never vetted here
    assert not isinstance(compiled, str)
    progress = 0
    done = threading.Event()

    def count() -> None:
        nonlocal progress
        while not done.is_set():
            progress += 1

    other = threading.Thread(target=count)
    other.start()
    try:
        with pytest.raises(PatternTimeout, match="backtracks"):
            compiled.search("a" * 60 + "!", Budget(5.0))
    finally:
        done.set()
        other.join()
    assert progress > 1000  # Python's re holds the GIL for the whole match: this thread would not have run
    with pytest.raises(PatternTimeout, match="backtracks"):
        compiled.search("aaa")  # remembered: a slow pattern costs its budget once, not on every check


def test_a_spent_budget_stops_the_remaining_patterns() -> None:
    compiled = compile_pattern(r"\bok\b")
    assert not isinstance(compiled, str)
    with pytest.raises(PatternTimeout, match="spent"):
        compiled.search("ok", Budget(0.0))
    assert compiled.search("it is ok", Budget(1.0)) == (6, 8)


def test_a_quadratic_pattern_passes_vetting_and_the_run_budget_stops_it_on_a_long_draft() -> None:
    compiled = vet(r"^(a+)+$")  # fine on a short line, quadratic in a line's length
    with pytest.raises(PatternTimeout, match="backtracks"):
        compiled.search("a" * 50_000 + "!", Budget(5.0))
