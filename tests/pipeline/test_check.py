"""The check: deterministic patterns, failed actions in other words, app policies, the LLM judge."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from pydantic import BaseModel

from forethought import Forethought, InvalidInput, Record
from forethought.apps.base import App, KindSpec, PolicyFinding, Review
from forethought.apps.generic import APP as GENERIC
from forethought.apps.project.patterns import derive_patterns
from forethought.domain import CheckPatterns, Session, Status
from forethought.domain.candidates import Candidate
from forethought.domain.times import utcnow
from forethought.embed.base import Embedder, Vectors
from forethought.llm import FakeChatModel, FakeOpenAIServer, OpenAICompatibleModel, ProviderTimeout
from forethought.memory.writing import Draft, index_payload, new_record
from forethought.pipeline.check import check_draft, failed_action
from forethought.store.base import ChangeSet, NewRecord

SPACE = "sarah"


class Outcome(BaseModel):
    action: str = ""
    outcome: str = ""


class Rule(BaseModel):
    pass


class SupportApp(App):
    """A test app with an action vocabulary, an outcome kind, a rule kind and one policy."""

    name = "support-test"
    title = "support test"
    subject_type = "customer"
    kinds: ClassVar[Mapping[str, KindSpec]] = {
        "outcome_reported": KindSpec(name="outcome_reported", description="an outcome", attributes=Outcome),
        "rule": KindSpec(name="rule", description="a rule with check patterns", attributes=Rule, review=Review.AUTO),
    }
    _RESTART = re.compile(r"\b(?:restart|toggl|turn)\w*\b.*\bbluetooth\b|\bbluetooth\b.*\boff and on\b", re.I)
    _REPAIR = re.compile(r"\bre-?pair\w*|\bforget\w*\b.*\bpair\w*", re.I)
    _ACTIONS: ClassVar[list[tuple[str, re.Pattern[str]]]] = [
        ("restart bluetooth", _RESTART),
        ("re-pair device", _REPAIR),
    ]

    def extract(self, session: Session) -> list[Candidate]:
        return []

    def action_key(self, text: str) -> str | None:
        return next((key for key, rule in self._ACTIONS if rule.search(text)), None)

    def policy_findings(self, draft: str, records: Sequence[Record]) -> list[PolicyFinding]:
        match = re.search(r"[^.\n]*\bguarantee[^.\n]*", draft)
        if match is None or not records:
            return []
        return [PolicyFinding(record_id=records[0].id, excerpt=match.group(0).strip(), severity="warning",
                              message="support never guarantees a fix", suggestion="say what may help")]  # fmt: skip


APP = SupportApp()


class ConceptEmbedder(Embedder):
    """Texts naming one concept embed alike: enough to test the paraphrase-by-embedding path."""

    name, dim = "concepts-4", 4
    GROUPS = (("reboot", "power-cycle", "power cycle"), ("firmware",), ("cache",))

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for col, words in enumerate(self.GROUPS):
                out[row, col] = float(any(w in text.lower() for w in words))
            out[row, 3] = 0.01
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def put(memory: Forethought, statement: str, *, kind: str = "rule", check: CheckPatterns | None = None,
        confidence: float = 1.0, **attributes: Any) -> Record:  # fmt: skip
    """Store a record with check patterns (the façade's retain takes none: review sets them)."""
    target = memory.space(memory.scope(APP, SPACE))
    draft = Draft(kind=kind, statement=statement, attributes=attributes, confidence=confidence)
    record = new_record(target.id, draft, status=Status.ACTIVE, occurred_at=utcnow(), now=utcnow())
    record = record.model_copy(update={"check": check})
    payload = index_payload(record)
    assert memory.embedder is not None
    vector = memory.embedder.embed([payload.embed_text])[0]
    memory.store.records.apply(
        ChangeSet(target.id, inserts=[NewRecord(record, vector, payload.terms, payload.search_text)])
    )
    return record


def findings(*items: tuple[str, str]) -> str:
    return json.dumps({"findings": [{"handle": h, "excerpt": e, "severity": "error", "message": "breaks it",
                                     "suggestion": "do the other thing"} for h, e in items]})  # fmt: skip


@pytest.fixture
def bluetooth(memory: Forethought) -> Record:
    return put(memory, "Restarting Bluetooth did not stop the disconnections.", kind="outcome_reported",
               action="restart Bluetooth", outcome="failed")  # fmt: skip


@pytest.fixture
def prisma(memory: Forethought) -> Record:
    return put(memory, "Use the shared PrismaClient from lib/db; never construct one per request.",
               check=CheckPatterns(forbid=(r"new PrismaClient\(",), require=(r"from ['\"]@/lib/db['\"]",)))  # fmt: skip


# -- deterministic patterns ------------------------------------------------------------------------


def test_a_forbid_pattern_quotes_the_whole_line_verbatim(memory: Forethought, prisma: Record) -> None:
    draft = "import { db } from '@/lib/db'\n\nexport async function GET() {\n  const c = new PrismaClient();\n}"
    report = check_draft(memory.memory, memory.scope(APP, SPACE), draft, records=[prisma])
    assert [(v.source, v.severity, v.excerpt, v.handle) for v in report.violations] == [
        ("pattern", "error", "const c = new PrismaClient();", prisma.handle)
    ]
    assert not report.clean and report.mode == "heuristic" and report.records_checked == 1
    assert "forbids" in report.violations[0].message and prisma.statement in report.violations[0].message


def test_a_missing_required_pattern_is_a_violation_with_no_excerpt(memory: Forethought, prisma: Record) -> None:
    report = check_draft(memory.memory, memory.scope(APP, SPACE), "const db = globalThis.db;", records=[prisma])
    assert [(v.source, v.excerpt) for v in report.violations] == [("pattern", "")]
    assert "requires" in report.violations[0].message


@pytest.mark.parametrize(
    ("pattern", "why"),
    [("new PrismaClient(", "does not compile"), ("(a+)+$", "backtracks"), ("x" * 600, "longer than")],
)
def test_unsafe_or_broken_patterns_are_skipped_and_reported(memory: Forethought, pattern: str, why: str) -> None:
    record = put(memory, "A rule with a bad pattern.", check=CheckPatterns(forbid=(pattern,)))
    report = check_draft(memory.memory, memory.scope(APP, SPACE), "a" * 5000 + "!", records=[record])
    assert report.violations == [] and report.clean
    assert [(s.handle, s.pattern) for s in report.skipped_patterns] == [(record.handle, pattern)]
    assert why in report.skipped_patterns[0].reason


def test_a_draft_over_the_size_limit_is_refused(memory: Forethought) -> None:
    with pytest.raises(InvalidInput):
        check_draft(memory.memory, memory.scope(APP, SPACE), "x" * 200_001, records=[])


def test_a_low_confidence_record_only_warns(memory: Forethought) -> None:
    record = put(memory, "Never use var.", check=CheckPatterns(forbid=(r"\bvar\b",)), confidence=0.4)
    report = check_draft(memory.memory, memory.scope(APP, SPACE), "var x = 1;", records=[record])
    assert [v.severity for v in report.violations] == ["warning"] and report.clean
    assert "confidence 0.40" in report.violations[0].message


# -- failed actions --------------------------------------------------------------------------------


def test_failed_actions_are_read_from_kinds_and_attributes(bluetooth: Record) -> None:
    assert failed_action(bluetooth, APP.failed_kinds) == "restart Bluetooth"
    now = utcnow()
    base = {"id": "r", "space_id": "s", "handle": "h", "lineage_id": "r", "occurred_at": now, "recorded_at": now}
    tried = Record(kind="failed_approach", statement="We tried caching carts in Redis; it lost carts.", **base)
    assert failed_action(tried, APP.failed_kinds) == "caching carts in Redis"
    worked = Record(
        kind="outcome_reported", statement="Re-pairing fixed it.", attributes={"outcome": "resolved"}, **base
    )
    assert failed_action(worked, APP.failed_kinds) is None


@pytest.mark.parametrize(
    "draft",
    [
        "You could toggle Bluetooth off and on again.",
        "Let's turn Bluetooth off, wait ten seconds, then turn it back on.",
        "1. Restart Bluetooth on your phone.",
        "I recommend restarting Bluetooth before anything else.",
    ],
)
def test_a_failed_action_recommended_in_other_words_is_caught(
    memory: Forethought, bluetooth: Record, draft: str
) -> None:
    report = check_draft(memory.memory, memory.scope(APP, SPACE), draft, records=[bluetooth])
    assert [(v.source, v.handle) for v in report.violations] == [("action", bluetooth.handle)]
    assert report.violations[0].excerpt in draft and "already failed" in report.violations[0].message


@pytest.mark.parametrize(
    "draft",
    [
        "You already tried restarting Bluetooth, so let's update the headphone firmware.",
        "Since restarting Bluetooth didn't help, try resetting the headphones.",
        "Restarting Bluetooth was tried last week. Update the firmware next.",
        "Don't restart Bluetooth again; instead, check for interference from the microwave.",
    ],
)
def test_mentioning_what_was_tried_is_not_recommending_it(memory: Forethought, bluetooth: Record, draft: str) -> None:
    assert check_draft(memory.memory, memory.scope(APP, SPACE), draft, records=[bluetooth]).violations == []


def test_without_an_action_vocabulary_words_still_match(memory: Forethought) -> None:
    record = put(memory, "Clearing the browser cache did not fix the login loop.", kind="failed_approach")
    report = check_draft(
        memory.memory,
        memory.scope(GENERIC, SPACE),
        "Please try clearing your browser cache once more.",
        records=[record],
    )
    assert [v.source for v in report.violations] == ["action"] and "same words" in report.violations[0].message


def test_the_excerpt_is_the_whole_sentence_with_its_dotted_words(memory: Forethought) -> None:
    record = put(memory, "Downgrading Node.js did not fix the build.", kind="failed_approach")
    draft = "The build broke. Please try downgrading Node.js to 18.2 again. Then rerun it."
    report = check_draft(memory.memory, memory.scope(GENERIC, SPACE), draft, records=[record])
    assert [(v.source, v.excerpt) for v in report.violations] == [
        ("action", "Please try downgrading Node.js to 18.2 again.")
    ]


def test_embeddings_catch_a_paraphrase_no_rule_knows(tmp_path: Path) -> None:
    with Forethought.open(tmp_path / "c.db", embedder=ConceptEmbedder()) as memory:
        record = put(memory, "Rebooting the phone", kind="failed_approach")
        report = check_draft(
            memory.memory, memory.scope(GENERIC, SPACE), "Go ahead and power-cycle the handset.", records=[record]
        )
        assert [v.source for v in report.violations] == ["action"] and "other words" in report.violations[0].message
        clean = check_draft(
            memory.memory, memory.scope(GENERIC, SPACE), "Go ahead and update the firmware.", records=[record]
        )
        assert clean.violations == []


def test_app_policies_are_reported(memory: Forethought, bluetooth: Record) -> None:
    report = check_draft(
        memory.memory,
        memory.scope(APP, SPACE),
        "Updating the firmware, we guarantee, will fix it.",
        records=[bluetooth],
    )
    assert [(v.source, v.severity, v.handle) for v in report.violations] == [("policy", "warning", bluetooth.handle)]


# -- records recalled when none are given ---------------------------------------------------------


def test_without_records_the_relevant_ones_are_recalled(memory: Forethought, prisma: Record, bluetooth: Record) -> None:
    report = check_draft(
        memory.memory, memory.scope(APP, SPACE), "export const db = new PrismaClient();\nTry restarting Bluetooth."
    )
    assert {(v.source, v.handle) for v in report.violations} >= {
        ("pattern", prisma.handle),
        ("action", bluetooth.handle),
    }
    assert report.timings_ms["recall"] >= 0 and report.records_checked >= 2


def test_an_empty_space_is_clean_without_a_recall(memory: Forethought, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory.memory, "recall", lambda *a, **k: pytest.fail("recall called"))
    report = check_draft(memory.memory, memory.scope(APP, "nobody"), "new PrismaClient()")
    assert report.clean and report.violations == [] and report.records_checked == 0


# -- the LLM judge ---------------------------------------------------------------------------------

DRAFT = "Here is the route.\nIt stores the token in   localStorage   for speed.\nDone."


def test_judge_findings_must_cite_a_provided_record_and_quote_the_draft(memory: Forethought, prisma: Record) -> None:
    cookie = put(memory, "Refresh tokens live in an httpOnly cookie, never in localStorage.")
    model = FakeChatModel([findings(
        (cookie.handle, "It stores the token in localStorage for speed."),  # whitespace differs: kept
        ("zzzzzzzz", "stores the token"),  # a record that was never provided
        (cookie.handle, "It saves the token in sessionStorage"),  # not in the draft
        (cookie.handle.upper(), "ok"),  # too short to be evidence
    )])  # fmt: skip
    report = check_draft(memory.memory, memory.scope(APP, SPACE), DRAFT, records=[cookie, prisma], model=model)
    judged = [v for v in report.violations if v.source == "judge"]
    assert [(v.handle, v.excerpt) for v in judged] == [
        (cookie.handle, "It stores the token in   localStorage   for speed.")
    ]
    assert report.dropped_judge_findings == 3 and report.mode == "llm:fake" and report.usage.total_tokens > 0
    prompt = model.calls[0].messages[-1].content
    assert f"[{cookie.handle}]" in prompt and DRAFT in prompt


def test_a_judge_finding_repeating_a_pattern_is_not_reported_twice(memory: Forethought) -> None:
    record = put(memory, "Never keep tokens in localStorage.", check=CheckPatterns(forbid=(r"localStorage",)))
    model = FakeChatModel([findings((record.handle, "stores the token in   localStorage"))])
    report = check_draft(memory.memory, memory.scope(APP, SPACE), DRAFT, records=[record], model=model)
    assert [v.source for v in report.violations] == ["pattern"]


def test_a_failing_judge_keeps_the_deterministic_findings(memory: Forethought, prisma: Record) -> None:
    model = FakeChatModel([ProviderTimeout("read timed out")])
    report = check_draft(
        memory.memory, memory.scope(APP, SPACE), "const c = new PrismaClient()", records=[prisma], model=model
    )
    assert report.mode == "heuristic" and report.degraded is not None and "provider_timeout" in report.degraded
    assert [v.source for v in report.violations] == ["pattern", "pattern"]


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as s:
        yield s


def run_http(memory: Forethought, server: FakeOpenAIServer, records: list[Record]) -> Any:
    model = OpenAICompatibleModel.local(server.base_url, model="judge-m", max_retries=0, timeout_s=5.0)
    try:
        return check_draft(memory.memory, memory.scope(APP, SPACE), DRAFT, records=records, model=model)
    finally:
        model.close()


def test_over_http_a_valid_judgement_is_used(memory: Forethought, server: FakeOpenAIServer) -> None:
    cookie = put(memory, "Refresh tokens live in an httpOnly cookie, never in localStorage.")
    server.reply(findings((cookie.handle, "stores the token in localStorage")))
    report = run_http(memory, server, [cookie])
    assert report.mode == "llm:judge-m" and [v.excerpt for v in report.violations] == [
        "stores the token in   localStorage"
    ]


def test_over_http_invalid_output_degrades(memory: Forethought, server: FakeOpenAIServer) -> None:
    cookie = put(memory, "Refresh tokens live in an httpOnly cookie.")
    server.invalid_json()
    server.invalid_json()
    report = run_http(memory, server, [cookie])
    assert report.mode == "heuristic" and report.degraded is not None and "invalid_output" in report.degraded


def test_over_http_a_server_error_degrades(memory: Forethought, server: FakeOpenAIServer) -> None:
    cookie = put(memory, "Refresh tokens live in an httpOnly cookie.", check=CheckPatterns(forbid=("localStorage",)))
    server.status(500)
    report = run_http(memory, server, [cookie])
    assert report.degraded is not None and "provider_unavailable" in report.degraded
    assert [v.source for v in report.violations] == ["pattern"] and not report.clean


# -- scope: the draft's path and the rule's words ------------------------------------------------


def test_a_require_of_a_tsx_rule_does_not_fire_on_a_python_draft(memory: Forethought) -> None:
    record = put(memory, "Every screen in .tsx files must go through withTheme().",
                 check=CheckPatterns(require=(r"\bwithTheme\s*\(",)))  # fmt: skip
    scope = memory.scope(APP, SPACE)
    python = check_draft(memory.memory, scope, "def screen():\n    return 1\n", records=[record], path="app/screen.py")
    assert python.violations == []
    tsx = check_draft(memory.memory, scope, "export const Screen = () => null;", records=[record], path="app/S.tsx")
    assert [v.rule for v in tsx.violations] == ["misses a pattern memory requires"]


def test_a_derived_forbid_quotes_the_offending_line_and_spares_its_neighbour(memory: Forethought) -> None:
    check = derive_patterns("Never call `legacyFetch`; use the api client.")
    record = put(memory, "Never call `legacyFetch`; use the api client.", check=check)
    draft = "const a = modernFetch(url);\n  const b = legacyFetch(url);\n"
    report = check_draft(memory.memory, memory.scope(APP, SPACE), draft, records=[record], path="web/api.ts")
    assert [v.excerpt for v in report.violations] == ["const b = legacyFetch(url);"]


def test_a_forbid_stays_off_the_place_the_rule_exempts(memory: Forethought) -> None:
    statement = "No package outside internal/store imports pgx."
    record = put(memory, statement, check=derive_patterns(statement))
    draft = 'package planner\n\nimport (\n\t"github.com/jackc/pgx/v5"\n)\n'
    scope = memory.scope(APP, SPACE)
    outside = check_draft(memory.memory, scope, draft, records=[record], path="internal/planner/plan.go")
    assert [v.excerpt for v in outside.violations] == ['"github.com/jackc/pgx/v5"']
    inside = check_draft(memory.memory, scope, draft, records=[record], path="internal/store/db.go")
    assert inside.violations == []


def test_the_facade_takes_the_drafts_path(memory: Forethought) -> None:
    record = put(memory, "No retry logic in Python.", check=CheckPatterns(forbid=(r"\bretry\b",)))
    scope = memory.scope(APP, SPACE)
    assert memory.check(scope, "retry = 3", records=[record], path="svc/a.py").violations
    assert memory.check(scope, "retry := 3", records=[record], path="svc/a.go").violations == []
