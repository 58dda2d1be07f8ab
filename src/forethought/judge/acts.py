"""What a sentence does in a conversation (its act), and the source modality that follows from it.

The acts are shared by every app: a project rule, a customer's failed fix and a student's skill
are all read off the same sentence judge, and each app decides which acts become which records.
"""

from __future__ import annotations

from enum import StrEnum

from forethought.domain import Modality, Role

__all__ = ["ACTS", "DURABLE", "PROJECT_KINDS", "Act", "modality_of"]


class Act(StrEnum):
    RULE = "rule"  # a standing rule or decision, decided by the person
    PREFERENCE = "preference"  # a person's or team's taste, softer than a rule
    FAILED_ATTEMPT = "failed_attempt"  # something tried that did not work
    SUCCESS_REPORT = "success_report"  # the speaker says a fix worked
    PLAN = "plan"  # future intent ("we'll move to X next quarter", "I'll try that tonight")
    ONE_TASK = "one_task"  # an instruction for this task or PR only
    TRANSIENT = "transient"  # current, temporary state
    PROPOSAL = "proposal"  # a suggestion nobody has accepted (yet)
    QUESTION = "question"
    SELF_FACT = "self_fact"  # a fact about the speaker
    NEGATED_SELF_FACT = "negated_self_fact"  # the speaker does not have / know / did not do it
    THIRD_PARTY = "third_party"  # someone else's news or facts
    CHATTER = "chatter"  # everything else


ACTS: tuple[Act, ...] = tuple(Act)

# Acts that can become standing memory (a rule, a taste, a lesson); the rest never do on their own.
DURABLE = frozenset({Act.RULE, Act.PREFERENCE, Act.FAILED_ATTEMPT})

# The kinds a project rule can have, in the order the kind head's outputs use.
PROJECT_KINDS: tuple[str, ...] = (
    "decision",
    "convention",
    "constraint",
    "preference",
    "failed_approach",
    "dependency_policy",
    "process",
    "architecture",
)

_MODALITY = {
    Act.RULE: Modality.DECIDED,
    Act.PREFERENCE: Modality.DECIDED,
    Act.FAILED_ATTEMPT: Modality.DONE,
    Act.SUCCESS_REPORT: Modality.DONE,
    Act.PLAN: Modality.PLANNED,
    Act.ONE_TASK: Modality.PLANNED,
    Act.PROPOSAL: Modality.PROPOSED,
}


def modality_of(act: Act, speaker: Role) -> Modality:
    """Decided, proposed, planned, done or reported. An agent's rule-like sentence is a proposal
    until the person agrees: only the person decides."""
    if speaker is not Role.USER and act in (Act.RULE, Act.PREFERENCE):
        return Modality.PROPOSED
    return _MODALITY.get(act, Modality.REPORTED)
