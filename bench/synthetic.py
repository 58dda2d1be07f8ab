"""Seeded synthetic memories and queries for the scale benchmark (no data downloaded).

Texts look like what agents store: facts about people, systems and decisions, with names,
numbers and identifiers. Each record also gets a unique identifier so exact-term search has
something rare to find.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

__all__ = ["memories", "queries"]

PEOPLE = ["Alice", "Bob", "Priya", "Chen", "Fatima", "Lars", "Mateo", "Yuki", "Ngozi", "Oleg", "Amara", "Diego"]
SYSTEMS = [
    "PostgreSQL",
    "PrismaClient",
    "Redis",
    "billing_service",
    "Kafka",
    "auth-gateway",
    "S3 bucket",
    "nightly ETL job",
    "GitHub Actions",
    "React frontend",
    "payment webhook",
    "search index",
]
VERBS = [
    "decided to keep",
    "rejected",
    "migrated",
    "reported a failure in",
    "asked about",
    "restarted",
    "deprecated",
    "benchmarked",
    "documented",
    "rolled back",
    "approved changes to",
    "paged on-call for",
]
REASONS = [
    "because the previous attempt timed out under load",
    "after the security review flagged it",
    "so that European customers see lower latency",
    "although nobody measured the effect",
    "as agreed in the retrospective",
    "to cut the monthly bill",
    "because the vendor contract ends",
    "after incident review",
    "since the tests were flaky",
    "to unblock the mobile release",
]
WHEN = ["on Monday", "last sprint", "in March", "before the freeze", "during the outage", "next quarter"]


def _text(rng: random.Random, i: int) -> str:
    return (
        f"{rng.choice(PEOPLE)} {rng.choice(VERBS)} the {rng.choice(SYSTEMS)} {rng.choice(WHEN)} "
        f"{rng.choice(REASONS)} (ticket OPS-{i})"
    )


def memories(n: int, seed: int = 1) -> Iterator[str]:
    rng = random.Random(seed)
    for i in range(n):
        yield _text(rng, i)


def queries(n: int, size: int, seed: int = 2) -> list[str]:
    """A mix of natural-language questions and exact-identifier lookups."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 4 == 3:
            out.append(f"what happened with OPS-{rng.randrange(size)}?")
        else:
            out.append(f"why did {rng.choice(PEOPLE)} change the {rng.choice(SYSTEMS)} {rng.choice(WHEN)}?")
    return out
