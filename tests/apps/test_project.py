"""The project app: phrase rules, areas, derived check patterns, applicability and policy findings.

Extraction here runs the phrase-rule path (the fallback when the sentence judge's model is not
available); the judge's path has its own tests in test_project_judge.py.

Examples are written for these tests (an invented storefront and a billing service), not taken from
the benchmark fixtures, so the benchmark stays a fair measure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from forethought.apps.base import Review
from forethought.apps.project import APP
from forethought.apps.project.areas import code_identifiers, infer_area
from forethought.apps.project.extract import extract as extract_with
from forethought.apps.project.kinds import KINDS
from forethought.apps.project.patterns import derive_patterns
from forethought.domain import Record, Role
from forethought.domain.candidates import Candidate, CheckPatterns
from forethought.domain.patterns import vet
from forethought.errors import ModelUnavailable
from forethought.judge import Judgement, SentenceJudge
from forethought.pipeline.validator import validate
from forethought.plugins import registry
from tests.apps.conftest import session

NOW = datetime(2026, 5, 1, tzinfo=UTC)


class NoJudge(SentenceJudge):
    """A judge whose model is missing: extraction falls back to the phrase rules."""

    def judge(self, items: Sequence[tuple[str, Role]]) -> list[Judgement]:
        raise ModelUnavailable("no judge in these tests")


def extract(*turns: tuple[str, str], sid: str = "s1") -> list[Candidate]:
    return extract_with(session(*turns, sid=sid), judge=NoJudge())


def one(text: str, role: str = "user") -> Candidate | None:
    found = extract((role, text))
    assert len(found) <= 1, found
    return found[0] if found else None


def record(kind: str, statement: str, **attributes: object) -> Record:
    return Record(
        id=f"rec-{kind}",
        space_id="space",
        handle="AB12CD34",
        lineage_id=f"rec-{kind}",
        kind=kind,
        statement=statement,
        attributes=dict(attributes),
        occurred_at=NOW,
        recorded_at=NOW,
    )


# -- extraction rules: one positive and at least one negative per kind -------------------------
@pytest.mark.parametrize(
    ("text", "kind", "area"),
    [
        (
            "We decided to keep invoices in Postgres rather than DynamoDB because finance needs joins.",
            "decision",
            "payments",
        ),
        ("Let's go with Celery instead of RQ because we need retries with backoff.", "decision", "general"),
        (
            "Never put session tokens in the URL query string, they end up in access logs.",
            "constraint",
            "auth",
        ),
        ("Don't use lodash, modern JS covers what we need.", "convention", "general"),
        ("Always use the HttpClient singleton from src/net/client.ts.", "convention", "general"),
        ("Test files are named *.spec.ts and live next to the code they test.", "convention", "testing"),
        ("Every PATCH must send the X-Shop-Idempotency header.", "constraint", "api"),
        ("The April outage was caused by an expired TLS certificate on the gateway.", "failed_approach", "infra"),
        (
            "We tried server-side sessions in Memcached but it failed because evictions logged people out.",
            "failed_approach",
            "auth",
        ),
        ("Streaming the CSV export through the ORM didn't work, it held every row in memory.", "failed_approach", "db"),
        ("Releases go out via the blue-green pipeline on Mondays.", "process", "deploy"),
        ("I prefer squash merges for feature branches.", "preference", "process"),
    ],
)
def test_each_rule_extracts_its_kind_and_area(text: str, kind: str, area: str) -> None:
    found = one(text)
    assert found is not None
    assert (found.kind, found.attributes["area"]) == (kind, area)
    KINDS[kind].attributes.model_validate(found.attributes)  # attributes fit the kind's model
    assert found.tags == [f"area:{area}"]


@pytest.mark.parametrize(
    "text",
    [
        "Should we decide on a queue library this week?",  # question
        "We might go with Kafka next quarter.",  # deferred
        "Not in this sprint, but we could move auth to Keycloak.",  # deferred
        "I'm on branch feat/export and my local build fails on Node 18.",  # transient
        "The tests are flaky for now.",  # transient
        "The token is stored in a cookie.",  # a description, not a rule
        "I'll try the streaming parser next.",  # a plan, not a failure
        "Let's try moving the cron jobs to a worker.",  # a suggestion, not a failure
        "The build didn't work.",  # a failure with no approach named
        "We need an incident runbook.",  # an incident noun without a cause
        "I just deployed the branch to staging.",  # an action, not a deployment rule
        "I'd like you to add a test for that.",  # a request, not a preference
        "Thanks, that looks right.",
    ],
)
def test_sentences_that_are_not_memory_are_skipped(text: str) -> None:
    assert extract(("user", text)) == []


def test_decision_attributes_are_cut_from_the_sentence() -> None:
    found = one("Let's go with Celery instead of RQ because we need retries with backoff.")
    assert found is not None
    assert found.attributes["what"] == "Celery"
    assert found.attributes["alternatives_rejected"] == ["RQ"]
    assert found.attributes["why"] == "we need retries with backoff"


def test_failed_approach_and_incident_attributes() -> None:
    failed = one("We tried server-side sessions in Memcached but it failed because evictions logged people out.")
    assert failed is not None
    assert failed.attributes["approach"] == "server-side sessions in Memcached"
    assert failed.attributes["why_failed"] == "evictions logged people out"
    incident = one("The April outage was caused by an expired certificate and took down checkout for two hours.")
    assert incident is not None and incident.kind == "failed_approach"
    assert incident.attributes["date"] == "April"
    assert incident.attributes["why_failed"].startswith("took down checkout for two hours")


def test_evidence_is_verbatim_with_turn_role_and_session() -> None:
    turn = "Morning! Also, never log card numbers. Thanks."
    found = extract(("user", "hi"), ("user", turn), sid="sess-9")
    assert len(found) == 1
    evidence = found[0].evidence[0]
    assert evidence.quote in turn and evidence.quote == "Also, never log card numbers."
    assert (evidence.session_id, evidence.turn_index, evidence.role) == ("sess-9", 1, Role.USER)
    assert found[0].statement == "Never log card numbers."


def test_agent_turns_propose_but_plans_and_reports_are_skipped() -> None:
    found = extract(
        ("agent", "I'll add the index now. Done, I updated schema.prisma. The handler now returns 201."),
        ("agent", "I suggest a rule: every form component must use the shared FormField wrapper."),
    )
    assert [(c.kind, c.asserted_by) for c in found] == [("convention", Role.AGENT)]
    assert found[0].confidence < 0.7
    assert APP.review(found[0]) is Review.HUMAN


def test_tool_output_and_code_blocks_are_never_sources() -> None:
    found = extract(
        ("tool", "FAIL tests/auth.test.ts: never store tokens in localStorage (lint rule)"),
        ("agent", "Here is the change:\n```ts\n// always use the singleton\nconst db = new PrismaClient()\n```"),
    )
    assert found == []


def test_duplicate_sentences_in_a_session_yield_one_candidate() -> None:
    assert len(extract(("user", "Never log card numbers."), ("user", "Never log card numbers."))) == 1


def test_review_policy() -> None:
    person = one("I prefer small commits with clear messages.")
    team = one("We prefer small PRs over big-bang refactors.")
    decision = one("We decided to drop IE11 support.")
    assert person is not None and team is not None and decision is not None
    assert person.attributes["holder"] == "person" and APP.review(person) is Review.AUTO
    assert team.attributes["holder"] == "team" and APP.review(team) is Review.HUMAN
    assert APP.review(decision) is Review.HUMAN
    assert APP.review(person.model_copy(update={"asserted_by": Role.AGENT})) is Review.HUMAN


def test_the_validator_accepts_what_the_extractor_proposes() -> None:
    s = session(
        ("user", "I'm on branch fix/login. Never store API keys in localStorage."),
        ("agent", "Understood, I'll keep them server-side."),
        ("user", "We decided to use Argon2 for password hashing instead of bcrypt."),
    )
    report = validate(extract_with(s, judge=NoJudge()), s, APP)
    assert [c.kind for c in report.validated.accepted] == ["constraint", "decision"]
    assert report.validated.rejected == []


def test_the_app_is_registered_as_a_builtin() -> None:
    assert registry().app("project") is APP
    assert APP.subject_type == "project"


# -- areas -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "area"),
    [
        ("Refactor src/auth/session.ts", "auth"),
        ("Speed up the query in lib/db.ts", "db"),
        ("Refund flow for Stripe charges", "payments"),
        ("Add a dark-mode toggle to the site header", "frontend"),  # a page header is not an HTTP header
        ("Add a date picker to the booking form", "frontend"),
        ("Send the X-Trace-Id header on every request", "api"),
        ("Bump the helm chart for staging", "deploy"),
        ("Fix the flaky playwright suite", "testing"),
        ("Ship traces to Tempo via OpenTelemetry", "observability"),
        ("Rename the README section", "general"),
    ],
)
def test_area_inference(text: str, area: str) -> None:
    assert infer_area(text) == area


def test_a_path_outweighs_a_passing_word() -> None:
    assert infer_area("Show the session expiry in components/billing/Plan.tsx") == "payments"
    assert infer_area("Update the api docs comment in src/auth/middleware.ts") == "auth"


def test_code_identifiers() -> None:
    ids = code_identifiers("Use `db` from lib/db.ts, not new PrismaClient(), and send X-Shop-CSRF via fetchJson().")
    assert {"db", "lib/db.ts", "PrismaClient", "X-Shop-CSRF", "fetchJson()"} <= set(ids)


# -- derived check patterns --------------------------------------------------------------------
def _fires(patterns: tuple[str, ...], code: str) -> bool:
    return any(re.search(p, code, re.MULTILINE) for p in patterns)


@pytest.mark.parametrize(
    ("rule", "violating", "compliant"),
    [
        (
            "Never store refresh tokens in localStorage.",
            "localStorage.setItem('rt', data.refreshToken)",
            "localStorage.setItem('theme', 'dark')\ncookies().set('__Host-rt', token, { httpOnly: true })",
        ),
        (
            "Don't use moment.js, we use date-fns.",
            "import moment from 'moment'\nconst d = moment(order.createdAt)",
            "import { format } from 'date-fns'\n// at the moment we format on the server",
        ),
        (
            "Always use the PrismaClient singleton from lib/db.ts.",
            "const prisma = new PrismaClient()",
            "import { db } from '@/lib/db'\nconst orders = await db.order.findMany()",
        ),
        (
            "Don't log customer emails, even at debug level.",
            "logger.debug('lookup', { email: user.email })",
            "logger.debug('lookup', { customerId: user.id })\nsendEmail(user.email)",
        ),
        (
            "Never log request bodies.",
            "console.log('incoming', req.body)",
            "console.log('incoming', req.method, req.url)",
        ),
        (
            "Don't use AsyncStorage for the auth token; it goes in the Keychain.",
            "await AsyncStorage.setItem('authToken', token)",
            "await AsyncStorage.setItem('onboardingSeen', '1')\nawait SecureStore.setItemAsync('authToken', token)",
        ),
        (
            "We use Vitest for unit tests, not Jest.",
            "import { describe } from '@jest/globals'\nimport jest from 'jest'",
            "import { describe, it } from 'vitest'",
        ),
        (
            "Always import icons from @/components/icons, not from lucide-react.",
            "import { Trash } from 'lucide-react'",
            "import { Trash } from '@/components/icons'",
        ),
    ],
)
def test_forbid_patterns_catch_the_violation_and_spare_compliant_code(
    rule: str, violating: str, compliant: str
) -> None:
    check = derive_patterns(rule)
    assert check is not None and check.forbid
    assert _fires(check.forbid, violating)
    assert not _fires(check.forbid, compliant)


@pytest.mark.parametrize(
    ("rule", "name", "with_it", "without_it"),
    [
        (
            "All POSTs must send the X-Shop-CSRF header.",
            "X-Shop-CSRF",
            "fetch(url, { method: 'POST', headers: { 'x-shop-csrf': csrf } })",
            "fetch(url, { method: 'POST', body })",
        ),
        (
            "Admin routes must all go through requireRole('admin') from lib/authz.ts.",
            "requireRole",
            "export const GET = requireRole('admin', async (req) => list())",
            "export async function GET(req: Request) { return list() }",
        ),
    ],
)
def test_require_patterns(rule: str, name: str, with_it: str, without_it: str) -> None:
    check = derive_patterns(rule)
    assert check is not None and check.require and not check.forbid
    assert any(name.lower() in p.lower().replace("\\", "") for p in check.require)
    assert _fires(check.require, with_it)
    assert not _fires(check.require, without_it)


@pytest.mark.parametrize(
    "rule",
    [
        "Keep functions small and readable.",  # nothing concrete
        "Never call requests.get without a timeout.",  # an exception the regex cannot see
        "Never use floats for money.",  # an everyday word, not a library
        "Don't add another component library.",
        "Never send the X-Debug header to production.",  # negated: not a requirement
    ],
)
def test_vague_or_conditional_rules_derive_no_pattern(rule: str) -> None:
    assert derive_patterns(rule) is None


def test_extracted_rules_carry_their_patterns() -> None:
    found = one("Never store refresh tokens in localStorage.")
    assert found is not None and isinstance(found.check, CheckPatterns)
    assert one("We tried storing tokens in localStorage and it leaked them.").check is None  # type: ignore[union-attr]


_RULES_FOR_SAFETY = [
    "Never store refresh tokens in localStorage.",
    "Never put passwords in sessionStorage.",
    "Don't use moment.js, we use date-fns.",
    "Use axios instead of request.",
    "Always use the PrismaClient singleton from lib/db.ts.",
    "Never log personal data.",
    "Don't log customer emails.",
    "All POSTs must send the X-Shop-CSRF header.",
    "Every admin route must go through requireRole('admin').",
    "Don't use AsyncStorage for the auth token.",
    "console.log is banned in production code.",
    "Never import lodash.",
]
# Inputs shaped to make a backtracking regex work hard: long runs of what the patterns' bounded
# parts accept, with the closing token missing.
_HOSTILE = [
    "localStorage.setItem(" + "a" * 100_000,
    "localStorage[" + "token" * 20_000,
    "console.log(" + "x " * 50_000,
    "import " + "'" * 100_000,
    ("new Prisma" + " " * 90) * 1_000,
    "x-shop-csr" * 10_000,
]


def test_derived_patterns_pass_the_write_time_vetting_and_finish_on_100kb_within_their_budget() -> None:
    patterns = [p for rule in _RULES_FOR_SAFETY for c in [derive_patterns(rule)] if c for p in (*c.forbid, *c.require)]
    assert len(patterns) >= 15
    for pattern in patterns:
        compiled = vet(pattern)
        assert len(pattern) <= 500, pattern
        for text in _HOSTILE:
            assert len(text) >= 90_000
            compiled.search(text)  # PatternTimeout here would mean the pattern backtracks on hostile drafts


# -- applicability -----------------------------------------------------------------------------
def test_a_record_applies_when_the_task_touches_its_area() -> None:
    rec = record("constraint", "Never store refresh tokens in localStorage.", area="auth")
    verdict = APP.applicability("Add silent refresh to src/auth/session.ts", rec)
    assert verdict is not None and verdict.applies
    assert verdict.reason == "task touches auth (src/auth/session.ts); the record is an auth constraint"


def test_a_record_applies_when_the_task_names_its_identifiers() -> None:
    rec = record("convention", "Always use the PrismaClient singleton from lib/db.ts.", area="db")
    verdict = APP.applicability("Why does the report job create a PrismaClient per row?", rec)
    assert verdict is not None and verdict.applies
    assert verdict.reason.startswith("task mentions PrismaClient; the record is a db convention")


def test_a_record_does_not_apply_to_a_task_in_other_areas() -> None:
    rec = record("constraint", "Never store refresh tokens in localStorage.", area="auth")
    verdict = APP.applicability("Add a dark-mode toggle to the site header", rec)
    assert verdict is not None and not verdict.applies
    assert "frontend" in verdict.reason and "auth constraint" in verdict.reason


def test_applicability_is_left_to_the_judge_when_rules_cannot_tell() -> None:
    general = record("preference", "We prefer readable code.", area="general")
    assert APP.applicability("Add silent refresh to src/auth/session.ts", general) is None
    auth = record("constraint", "Never store refresh tokens in localStorage.", area="auth")
    assert APP.applicability("Tidy up the README wording", auth) is None
    assert APP.applicability("anything", record("skill", "Knows Go.")) is None


# -- policy findings ---------------------------------------------------------------------------
def test_a_draft_re_proposing_a_failed_approach_gets_a_warning_with_a_verbatim_excerpt() -> None:
    failed = record(
        "failed_approach",
        "We tried caching carts in Redis with a 24-hour TTL and it lost returning users' carts.",
        approach="caching carts in Redis with a 24-hour TTL",
        why_failed="it lost returning users' carts",
        area="db",
    )
    draft = "Plan:\n1. Move carts to Redis with a TTL so reads are faster.\n2. Add a cart service."
    findings = APP.policy_findings(draft, [failed])
    assert len(findings) == 1
    finding = findings[0]
    assert finding.excerpt in draft and finding.excerpt == "Move carts to Redis with a TTL so reads are faster."
    assert finding.severity == "warning" and finding.record_id == failed.id
    assert "lost returning users' carts" in finding.message


def test_a_draft_that_rejects_the_failed_approach_is_not_flagged() -> None:
    failed = record("failed_approach", "x", approach="caching carts in Redis with a 24-hour TTL", area="db")
    assert APP.policy_findings("Keep carts in Postgres; don't move carts to Redis with a TTL.", [failed]) == []
    assert APP.policy_findings("Add a dark-mode toggle to the header.", [failed]) == []


def test_a_draft_proposing_a_rejected_alternative_is_flagged() -> None:
    decision = record(
        "decision",
        "We decided on Postgres full-text search instead of Algolia.",
        what="Postgres full-text search",
        alternatives_rejected=["Algolia"],
        area="db",
    )
    draft = "For search relevance, index the catalogue in Algolia and query it from the client."
    findings = APP.policy_findings(draft, [decision])
    assert [f.excerpt for f in findings] == [draft]
    assert APP.policy_findings("Use Postgres full-text search, not Algolia.", [decision]) == []
