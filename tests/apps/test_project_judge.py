"""Project extraction on the sentence judge's path: what becomes a candidate, its kind, modality
and evidence. Sentences are written for these tests, not taken from the judge's corpus or the
benchmark sets; the judge's measured quality lives in bench/ (docs/benchmarks.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from forethought.apps.project import APP
from forethought.apps.project.extract import extract
from forethought.domain import Modality, Role
from forethought.domain.candidates import Candidate
from forethought.judge import Act, Judgement, SentenceJudge
from tests.apps.conftest import session


def found(*turns: tuple[str, str]) -> list[Candidate]:
    return APP.extract(session(*turns))


class ScriptedJudge(SentenceJudge):
    """A judge that says what the test tells it: acts by sentence, everything else chatter."""

    def __init__(self, acts: dict[str, tuple[Act, str | None]]) -> None:
        super().__init__()
        self.acts = acts

    def judge(self, items: Sequence[tuple[str, Role]]) -> list[Judgement]:
        out = []
        for text, _ in items:
            act, kind = self.acts.get(text, (Act.CHATTER, None))
            out.append(Judgement(act=act, confidence=0.9, probabilities={act: 0.9}, kind=kind, kind_confidence=0.9))
        return out


@pytest.mark.parametrize(
    "text",
    [
        "We'll move the job queue to NATS next quarter.",
        "Eventually we want to split billing out of the monolith.",
        "Next sprint I'm going to pin every dependency in the lockfile.",
        "I'll try the streaming parser tonight and report back.",
    ],
)
def test_a_plan_never_becomes_a_fact(text: str) -> None:
    assert [c for c in found(("user", text)) if c.modality is not Modality.PLANNED] == []


@pytest.mark.parametrize(
    "text",
    [
        "For this PR only, skip the flaky contract test.",
        "Hardcode the staging URL for now, we'll fix it later.",
        "Just in this branch, turn off the lint step.",
        "Fix it in src/pricing/discount.ts.",
    ],
)
def test_a_one_task_instruction_never_becomes_a_standing_rule(text: str) -> None:
    assert found(("user", text)) == []


@pytest.mark.parametrize(
    "text",
    [
        "I could add a retry with exponential backoff around the upload call.",
        "One option is to cache the exchange rates in memory for an hour.",
        "Shall I switch the config loader to pydantic-settings?",
        "We should probably always wrap these handlers in a transaction.",
    ],
)
def test_an_agent_proposal_never_becomes_the_users_rule(text: str) -> None:
    # The person answers with something else entirely: the proposal stays the agent's.
    assert (
        found(("agent", text), ("user", "Let's look at the failing import test first, the CI log is attached.")) == []
    )


def test_an_agent_proposal_the_person_agrees_to_is_decided_and_quotes_both() -> None:
    proposal = "Every handler in internal/api goes through withTx so a failed write rolls back."
    judge = ScriptedJudge({proposal: (Act.PROPOSAL, "architecture")})
    [c] = extract(session(("agent", proposal), ("user", "Yes, do that.")), judge=judge)
    assert (c.kind, c.modality, c.asserted_by) == ("architecture", Modality.DECIDED, Role.USER)
    assert [(e.role, e.quote) for e in c.evidence] == [(Role.AGENT, proposal), (Role.USER, "Yes, do that.")]


def test_a_long_reply_that_opens_with_yes_agrees_with_nothing_in_particular() -> None:
    proposal = "Every handler in internal/api goes through withTx so a failed write rolls back."
    judge = ScriptedJudge({proposal: (Act.PROPOSAL, "architecture")})
    reply = "Yes. Now the other thing: the export page is slow again, can you profile the query it runs at startup?"
    assert extract(session(("agent", proposal), ("user", reply)), judge=judge) == []


def test_adjacent_rule_sentences_of_one_turn_are_one_candidate_quoting_the_span() -> None:
    first, second = "Ruff format only, line length 100.", "And type hints on every public function."
    turn = f"Morning. {first} {second} Thanks!"
    judge = ScriptedJudge(
        {first: (Act.RULE, "convention"), "type hints on every public function.": (Act.RULE, "convention")}
    )
    [c] = extract(session(("user", turn)), judge=judge)
    assert c.evidence[0].quote == f"{first} {second}" and c.evidence[0].quote in turn
    assert c.kind == "convention" and c.modality is Modality.DECIDED


def test_kind_comes_from_the_judge_and_attributes_from_the_slots() -> None:
    rule = "We pin numpy to 1.26 in every service; no other version is allowed."
    judge = ScriptedJudge({rule: (Act.RULE, "dependency_policy")})
    [c] = extract(session(("user", rule)), judge=judge)
    assert c.kind == "dependency_policy" and c.attributes["package"] == "numpy"
    assert APP.kinds[c.kind].attributes.model_validate(c.attributes)
    assert c.extractor == "heuristic:judge"


def test_a_failed_attempt_is_done_not_decided() -> None:
    text = "We tried caching sessions in Redis and it broke failover."
    [c] = extract(session(("user", text)), judge=ScriptedJudge({text: (Act.FAILED_ATTEMPT, None)}))
    assert (c.kind, c.modality) == ("failed_approach", Modality.DONE)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("We decided to keep invoices in Postgres rather than DynamoDB because finance needs joins.", "decision"),
        ("Never put session tokens in the URL query string, they end up in access logs.", "constraint"),
        ("We tried server-side sessions in Memcached but it failed because evictions logged people out.",
         "failed_approach"),
        ("I prefer squash merges for feature branches.", "preference"),
    ],
)  # fmt: skip
def test_the_shipped_judge_reads_clear_rules(text: str, kind: str) -> None:
    [c] = found(("user", text))
    assert c.kind == kind and c.modality in (Modality.DECIDED, Modality.DONE)


def test_questions_tool_output_and_code_are_never_candidates() -> None:
    assert (
        found(
            ("user", "Should we always use the shared HTTP client?"),
            ("tool", "FAIL tests/auth.test.ts: never store tokens in localStorage (lint rule)"),
            ("agent", "Here is the change:\n```ts\n// always use the singleton\nconst db = new PrismaClient()\n```"),
        )
        == []
    )


@pytest.mark.parametrize(
    "reply",
    [
        "Ok, enough for today.",
        "ok thanks, that's it for today",
        "yes leave it out, Aroha decides",
        "ok opsgenie. and do we migrate the old 800GB?",
        "Sure, but only for the admin pages.",
    ],
)
def test_a_reply_that_does_more_than_agree_confirms_no_proposal(reply: str) -> None:
    proposal = "Every handler in internal/api goes through withTx so a failed write rolls back."
    judge = ScriptedJudge({proposal: (Act.PROPOSAL, "architecture")})
    assert extract(session(("agent", proposal), ("user", reply)), judge=judge) == []


def test_the_agreed_sentence_is_the_last_proposal_of_the_agents_turn() -> None:
    first = "We could log every retry at debug level."
    last = "I'd put the retry budget in config/retries.yaml so every worker reads the same limits."
    judge = ScriptedJudge({first: (Act.PROPOSAL, "convention"), last: (Act.PROPOSAL, "architecture")})
    [c] = extract(session(("agent", f"{first} {last}"), ("user", "Yes, go with that.")), judge=judge)
    assert c.evidence[0].quote == last


def test_a_rule_the_kind_head_calls_a_failed_approach_keeps_that_kind() -> None:
    dead = "Client-side tile caching in IndexedDB is dead for us, nobody tries it again."
    taste = "I'd keep the handlers thin, that's just how I like them."
    judge = ScriptedJudge({dead: (Act.RULE, "failed_approach"), taste: (Act.RULE, "preference")})
    kinds = {c.statement: (c.kind, c.modality) for c in extract(session(("user", dead), ("agent", "Ok."),
                                                                        ("user", taste)), judge=judge)}  # fmt: skip
    assert sorted(kinds.values()) == [("failed_approach", Modality.DONE), ("preference", Modality.DECIDED)]
