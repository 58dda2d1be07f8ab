"""The career app: extraction rules (with their negatives), identity, review, applicability, policy."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from forethought import Forethought
from forethought.apps.base import Review
from forethought.apps.career import APP, UNSPECIFIED_ROLE
from forethought.domain import Record, RelationLabel, Role
from forethought.domain.candidates import Candidate
from forethought.pipeline.relate import relate
from tests.apps.conftest import T0, session


def _extract(*texts: str) -> list[Candidate]:
    return APP.extract(session(*(("user", t) for t in texts)))


def _of(kind: str, candidates: list[Candidate]) -> list[dict[str, Any]]:
    return [c.attributes for c in candidates if c.kind == kind]


def _record(kind: str, attributes: dict[str, Any], statement: str = "x", **extra: Any) -> Record:
    return Record(
        id=f"r-{kind}-{len(str(attributes))}",
        space_id="space",
        handle="h",
        lineage_id="l",
        kind=kind,
        statement=statement,
        attributes=attributes,
        occurred_at=extra.pop("occurred_at", T0),
        recorded_at=T0,
        **extra,
    )


# -- skills -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "name", "has", "level"),
    [
        ("I'm learning Go", "Go", True, "beginner"),
        ("I've been writing Python for 3 years", "Python", True, "advanced"),
        ("I've been using Java for a year and a half", "Java", True, "intermediate"),
        ("I've used React for six months", "React", True, "beginner"),
        ("I'm very proficient in SQL", "SQL", True, "advanced"),
        ("I'm pretty comfortable with Docker", "Docker", True, "intermediate"),
        ("I'd say I'm pretty good at Python", "Python", True, "intermediate"),  # "I'd say" is not a hedge
        ("I'm an expert in Excel", "Excel", True, "expert"),
        ("I know a bit of TypeScript", "TypeScript", True, "beginner"),
        ("I'm not very good at C++", "C++", True, "beginner"),
        ("I know Kubernetes", "Kubernetes", True, "unknown"),
        ("I don't know Python", "Python", False, "unknown"),
        ("I've never used Rust", "Rust", False, "unknown"),
        ("I have no experience with AWS", "AWS", False, "unknown"),
        ("I'm not familiar with Kafka", "Kafka", False, "unknown"),
    ],
)
def test_skill_rules(text: str, name: str, has: bool, level: str) -> None:
    assert _of("skill", _extract(text)) == [{"name": name, "level": level, "has": has}]


def test_a_list_and_a_negated_tail() -> None:
    skills = {s["name"]: s["has"] for s in _of("skill", _extract("I know Python, C# and Node.js but not Java."))}
    assert skills == {"Python": True, "C#": True, "Node.js": True, "Java": False}


@pytest.mark.parametrize(
    "text",
    [
        "I want to learn Rust this summer.",
        "Should I learn Go?",
        "Do you think I know enough SQL?",
        "If I knew Python this would be easier.",
        "I know Sarah from class.",
        "Let's go to the career fair.",
    ],
)
def test_no_skill_from_plans_questions_or_non_skills(text: str) -> None:
    assert _of("skill", _extract(text)) == []


def test_the_advisors_words_never_become_the_students_facts() -> None:
    s = session(
        ("user", "Can you review my resume?"),
        ("agent", "You know Python well and you built a weather app. You applied to Shopify, right?"),
        ("user", "Yes."),
    )
    assert APP.extract(s) == []


def test_a_later_level_refines_an_earlier_mention_in_the_session() -> None:
    skills = _of("skill", _extract("I know Python.", "I've been writing Python for four years."))
    assert skills == [{"name": "Python", "level": "advanced", "has": True}]


# -- applications -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "company", "role", "status"),
    [
        ("I applied to Stripe for the backend intern role", "Stripe", "backend intern", "applied"),
        ("Got rejected by Contoso yesterday", "Contoso", UNSPECIFIED_ROLE, "rejected"),
        ("I have an interview with Globex next week", "Globex", UNSPECIFIED_ROLE, "interviewing"),
        ("Honestly Jane Street turned me down.", "Jane Street", UNSPECIFIED_ROLE, "rejected"),
        ("I didn't get the Hooli internship.", "Hooli", "intern", "rejected"),
        ("I got an offer from Initech for the QA intern position!", "Initech", "qa intern", "offered"),
        ("I accepted the offer from Bank of America.", "Bank of America", UNSPECIFIED_ROLE, "accepted"),
        ("I withdrew my application from Pied Piper.", "Pied Piper", UNSPECIFIED_ROLE, "withdrawn"),
        ("Umbrella sent me a rejection email.", "Umbrella", UNSPECIFIED_ROLE, "rejected"),
    ],
)
def test_application_rules(text: str, company: str, role: str, status: str) -> None:
    assert _of("application", _extract(text)) == [{"company": company, "role": role, "status": status}]


@pytest.mark.parametrize(
    "text",
    [
        "I might apply to Initech next month.",
        "I'm thinking about applying to Microsoft.",
        "Should I apply to Meta?",
        "I haven't applied to Stripe yet.",
        "If I get an offer from Netflix I'd take it.",
        "I may have an interview at Hulu soon.",
        "What if I applied to Deloitte instead?",
    ],
)
def test_plans_questions_and_negations_are_not_applications(text: str) -> None:
    assert _of("application", _extract(text)) == []


def test_two_applications_in_one_sentence() -> None:
    found = _of(
        "application", _extract("I applied for the data internship at Atlassian and the PM internship at Canva.")
    )
    assert [(a["company"], a["role"]) for a in found] == [("Atlassian", "data intern"), ("Canva", "pm intern")]


def test_pronouns_and_roles_resolve_within_the_session() -> None:
    found = _of(
        "application",
        _extract(
            "I applied to Stripe for the backend intern role.",
            "I have an interview with them on Monday!",
            "Just heard back from Stripe. They offered me the internship!",
            "I accepted it this morning.",
        ),
    )
    assert [(a["company"], a["role"], a["status"]) for a in found] == [
        ("Stripe", "backend intern", "applied"),
        ("Stripe", "backend intern", "interviewing"),
        ("Stripe", "backend intern", "offered"),
        ("Stripe", "backend intern", "accepted"),
    ]


def test_application_identity_is_company_and_role() -> None:
    assert APP.kinds["application"].identity == ("company", "role")


def test_a_status_change_supersedes_the_earlier_status(memory: Forethought) -> None:
    earlier = _extract("I applied to Stripe for the backend intern role.")[0]
    memory.retain(memory.scope(APP, "stu"), earlier.statement, kind="application", attributes=earlier.attributes)
    later = [
        c
        for c in _extract("I applied to Stripe for the backend intern role.", "Stripe rejected me.")
        if c.attributes["status"] == "rejected"
    ]
    other = _extract("Globex rejected me.")
    labels = [r.label for r in relate(memory.memory, memory.scope(APP, "stu"), [*later, *other])]
    assert labels == [RelationLabel.SUPERSEDES, RelationLabel.NEW]


# -- projects, goals, preferences -------------------------------------------------------------
def test_projects() -> None:
    found = _of(
        "project", _extract("I built a chess engine in C++.", "I'm building a budget app with React and Firebase.")
    )
    assert [(p["name"], p["technologies"]) for p in found] == [
        ("chess engine", ["C++"]),
        ("budget app", ["React", "Firebase"]),
    ]


@pytest.mark.parametrize(
    "text", ["I made a mistake on my cover letter.", "I want to build a compiler.", "I've never built a game."]
)
def test_not_projects(text: str) -> None:
    assert _of("project", _extract(text)) == []


def test_target_roles() -> None:
    found = _of(
        "target_role",
        _extract("I want to become a data engineer.", "I'd love to work as a product designer in healthcare."),
    )
    assert found == [
        {"role": "data engineer", "industry": None, "location": None},
        {"role": "product designer", "industry": "healthcare", "location": None},
    ]


@pytest.mark.parametrize(
    ("text", "topic", "value", "avoid", "strength"),
    [
        ("I'd rather work remotely", "work_mode", "remote", False, "mild"),
        ("not a fan of big companies", "company_size", "large", True, "mild"),
        ("On-site only roles are a dealbreaker for me.", "work_mode", "onsite", True, "strong"),
        ("I need to stay in Toronto.", "location", "Toronto", False, "strong"),
        ("I don't want to be a manager.", "role", "manager", True, "strong"),
    ],
)
def test_preferences(text: str, topic: str, value: str, avoid: bool, strength: str) -> None:
    found = _of("preference", _extract(text))
    assert {"topic": topic, "value": value, "avoid": avoid, "strength": strength} in found


# -- evidence and review ----------------------------------------------------------------------
def test_every_candidate_quotes_its_turn_verbatim() -> None:
    s = session(
        ("agent", "Welcome back!"),
        ("user", "Hi. I'm learning Go. Also, I applied to Stripe for the backend intern role!"),
    )
    found = APP.extract(s)
    assert {c.kind for c in found} == {"skill", "application"}
    for candidate in found:
        (evidence,) = candidate.evidence
        assert evidence.quote in s.turns[1].text
        assert (evidence.session_id, evidence.turn_index, evidence.role) == ("s1", 1, Role.USER)
        assert candidate.asserted_by is Role.USER


def test_review_approves_the_students_own_statements_only() -> None:
    (candidate,) = _extract("I'm learning Go")
    assert APP.review(candidate) is Review.AUTO
    assert APP.review(candidate.model_copy(update={"asserted_by": Role.AGENT})) is Review.HUMAN
    assert APP.review(candidate.model_copy(update={"kind": "salary"})) is Review.HUMAN


# -- applicability ----------------------------------------------------------------------------
def test_applicability() -> None:
    rejected = _record("application", {"company": "Stripe", "role": "backend intern", "status": "rejected"})
    lacks = _record("skill", {"name": "Python", "level": "unknown", "has": False})
    remote = _record("preference", {"topic": "work_mode", "value": "remote", "avoid": False, "strength": "strong"})
    assert APP.applicability("Should I follow up with Stripe?", rejected).applies  # type: ignore[union-attr]
    assert APP.applicability("Where else should I apply?", rejected).applies  # type: ignore[union-attr]
    assert APP.applicability("How do I negotiate rent?", rejected) is None
    assert "never assume" in APP.applicability("What skill gaps do I have?", lacks).reason  # type: ignore[union-attr]
    assert APP.applicability("Recommend some internships", remote).applies  # type: ignore[union-attr]
    assert APP.applicability("Tell me a joke", remote) is None


# -- policy findings --------------------------------------------------------------------------
REJECTED = _record("application", {"company": "Stripe", "role": "backend intern", "status": "rejected"})


@pytest.mark.parametrize(
    ("draft", "severity"),
    [
        ("You should apply to Stripe's backend intern role again.", "error"),
        ("Stripe is a great fit for you, apply there.", "error"),
        ("Consider Stripe's data engineering internship.", "warning"),
    ],
)
def test_recommending_the_company_that_rejected_the_student(draft: str, severity: str) -> None:
    (finding,) = APP.policy_findings(f"Good question. {draft} Good luck!", [REJECTED])
    assert (finding.severity, finding.excerpt, finding.record_id) == (severity, draft, REJECTED.id)


@pytest.mark.parametrize(
    "draft",
    [
        "Since Stripe rejected you, skip them and try Plaid.",
        "Stripe rejected your backend application, but their data engineering internship is worth a look.",
        "Apply to Plaid and Ramp.",
    ],
)
def test_acknowledged_or_avoided_rejections_are_fine(draft: str) -> None:
    assert APP.policy_findings(draft, [REJECTED]) == []


def test_asserting_a_skill_the_student_lacks_is_an_error() -> None:
    lacks = _record("skill", {"name": "Python", "level": "unknown", "has": False})
    draft = "Great profile. With your strong Python skills, data roles fit well. Learn SQL next."
    (finding,) = APP.policy_findings(draft, [lacks])
    assert finding.severity == "error" and finding.excerpt in draft and "Python" in finding.excerpt
    assert APP.policy_findings("Python is a gap; learn Python basics first.", [lacks]) == []


def test_contradicting_a_strong_preference_is_a_warning() -> None:
    remote = _record("preference", {"topic": "work_mode", "value": "remote", "avoid": False, "strength": "strong"})
    mild = remote.model_copy(update={"attributes": {**remote.attributes, "strength": "mild"}})
    draft = "I recommend the on-site role at Globex in Chicago."
    (finding,) = APP.policy_findings(draft, [remote])
    assert (finding.severity, finding.excerpt) == ("warning", draft)
    assert APP.policy_findings(draft, [mild]) == []


def test_superseded_records_are_ignored_by_policy() -> None:
    old = REJECTED.model_copy(update={"status": "superseded", "valid_to": T0 + timedelta(days=1)})
    assert APP.policy_findings("Stripe is a great fit for you, apply there.", [old]) == []


def test_asking_not_to_be_shown_something_is_a_dislike() -> None:
    found = _of("preference", _extract("Please don't recommend anything in crypto."))
    assert found == [{"topic": "industry", "value": "crypto", "avoid": True, "strength": "mild"}]


@pytest.mark.parametrize(
    "text",
    [
        "My roommate got rejected from Globex for the data role.",
        "Priya got an offer from Initech.",
        "She applied to Hooli last week.",
        "my lab-mate is interviewing with Umbrella Corp",
        "My roommate knows Rust really well.",
    ],
)
def test_someone_elses_news_is_never_the_students_fact(text: str) -> None:
    assert _extract(text) == []


def test_the_students_own_facts_beside_someone_elses_are_kept() -> None:
    found = _extract(
        "I applied to Hooli last week and my sister applied to Initech.", "My friend said Globex rejected me."
    )
    assert sorted((a["company"], a["status"]) for a in _of("application", found)) == [
        ("Globex", "rejected"),
        ("Hooli", "applied"),
    ]
