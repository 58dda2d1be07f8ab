"""The storefront demo project (seeded by `forethought serve --demo`): a dozen dated rules and
incidents across auth, payments, the database and the UI; an ADR folder whose pool-size decision
was superseded by a different pooling decision; a commit history with two decisions and noise; a
session in which a tech lead corrects an agent twice amid small talk (left in the inbox for
review); and a second project holding a rule that contradicts one of the first's, to show that
one project's memory never reaches another's briefs or checks. Written for the demo."""

from __future__ import annotations

from datetime import UTC, datetime

from forethought.apps.demo import DemoDocument, DemoMemory
from forethought.apps.project.slots import attributes
from forethought.apps.project.sources.adr import read_adr
from forethought.domain import Role, Turn
from forethought.domain.documents import SourceDocument

__all__ = ["STORE_DOCUMENTS", "STORE_MEMORIES"]

STORE = "storefront"
LEGACY = "storefront-legacy"


def _rule(key: str, kind: str, text: str, when: str, area: str, subject: str = STORE) -> DemoMemory:
    return DemoMemory(subject=subject, external_id=f"sf-{key}", kind=kind, text=text, occurred_at=when,
                      attributes={**attributes(kind, text), "area": area}, tags=(f"area:{area}",))  # fmt: skip


STORE_MEMORIES: tuple[DemoMemory, ...] = (
    _rule("tokens", "constraint", "Refresh tokens live in httpOnly cookies; never put them in localStorage.",
          "2025-09-03", "auth"),
    _rule("admin-role", "constraint", "Every admin route calls `requireRole('admin')` before it reads the body.",
          "2025-09-15", "auth"),
    _rule("cents", "constraint", "All money amounts are integer cents; never use floats for prices or totals.",
          "2025-10-02", "payments"),
    _rule("payment-element", "decision",
          "Card payments go through the Stripe Payment Element; raw card numbers never touch our servers.",
          "2025-10-06", "payments"),
    _rule("double-charge", "failed_approach",
          "Retrying the payment webhook without an idempotency key double-charged 41 customers on 2025-11-14; "
          "every webhook handler keys its work on the event id.", "2025-11-15", "payments"),
    _rule("migrations", "process",
          "Schema changes ship as forward-only migrations in db/migrations; never edit a migration once applied.",
          "2025-09-20", "db"),
    _rule("prisma", "convention",
          "Create PrismaClient once in src/lib/db.ts and import it; never instantiate it per request.",
          "2025-10-12", "db"),
    _rule("date-fns", "decision", "Format dates with date-fns; never use moment.js in the storefront.",
          "2025-08-28", "frontend"),
    _rule("button", "convention", "UI code uses the design-system `Button`; no raw <button> elements in src/ui.",
          "2025-11-02", "frontend"),
    _rule("tuesday", "process", "Releases ship every Tuesday through the staging pipeline; no Friday deploys.",
          "2025-09-09", "deploy"),
    _rule("pii-logs", "constraint", "Never log e-mail addresses or card data; log the customer id instead.",
          "2025-10-20", "observability"),
    _rule("real-db", "process", "Integration tests run against a real PostgreSQL; do not mock the database.",
          "2025-12-01", "testing"),
    _rule("legacy-moment", "convention", "Use moment.js for every date in the legacy storefront.", "2024-05-01",
          "frontend", subject=LEGACY),
    _rule("legacy-floats", "convention", "Prices are stored as floats in dollars in the legacy catalogue.",
          "2024-05-02", "payments", subject=LEGACY),
)  # fmt: skip

_ADRS = {
    "docs/adr/0001-postgresql-for-orders.md": """\
# 1. PostgreSQL for orders

Date: 2025-08-20

## Status

Accepted

## Context

Orders need transactions across the order, payment and stock tables.

## Decision

We will keep orders, payments and stock in one PostgreSQL database.

## Consequences

Reporting reads from a replica.
""",
    "docs/adr/0002-pool-size.md": """\
# 2. Database pool size per API pod

Date: 2025-09-01

## Status

Superseded by [ADR-0003](0003-pgbouncer.md)

## Context

API pods ran out of connections at peak.

## Decision

We will give every API pod a pool of 20 database connections.
""",
    "docs/adr/0003-pgbouncer.md": """\
# 3. Pool connections through PgBouncer

Date: 2026-01-12

## Status

Accepted. Supersedes [ADR-0002](0002-pool-size.md)

## Context

Twenty connections per pod exhausted PostgreSQL when the API scaled to 12 pods.

## Decision

We will route every database connection through PgBouncer in transaction mode, with at most 5 connections
per pod.

## Consequences

Session-level features (advisory locks, prepared statements across transactions) are not available.
""",
}


def _adrs() -> list[SourceDocument]:
    found = [read_adr(text, path=path) for path, text in _ADRS.items()]
    return [d for d in found if d is not None]


def _commit(sha: str, when: str, text: str, area: str) -> SourceDocument:
    at = datetime.fromisoformat(when).replace(tzinfo=UTC)
    turn = Turn(index=0, role=Role.USER, speaker="Priya", text=text, occurred_at=at)
    return SourceDocument(ref=f"git:{sha}", source="git", title=f"commit {sha[:12]}: {text.split('.')[0]}"[:200],
                          turns=(turn,), occurred_at=at, extract=True,
                          metadata={"hash": sha, "short": sha[:12], "area": area, "demo": True})  # fmt: skip


_COMMITS = (
    _commit("5d1c0f3a9e27b6d4c8f1a0e2b3c4d5e6f7a8b9c0", "2025-12-02T16:40:00",
            "Never retry a charge that failed with a 402, because the card issuer already declined it.\n\n"
            "The retry job charged declined cards again and the issuer flagged us.", "payments"),
    _commit("8a2e4b6c0d1f3a5b7c9d0e2f4a6b8c0d2e4f6a8b", "2026-02-03T11:05:00",
            "Session cookies are SameSite=Lax from now on, because the checkout redirect drops Strict cookies.",
            "auth"),
)  # fmt: skip

_SESSION = """\
User: Can you add a retry to the payment webhook handler? It times out now and then.
Assistant: Sure. I'll wrap the handler in a retry loop and keep the amount as a float in the log line.
User: No. Amounts stay integer cents, always. And a retry reuses the event id as its idempotency key.
Assistant: Understood, I'll key the retry on the event id and keep cents.
User: btw my laptop is on Node 18 and the build is slow today, ignore that.
Assistant: I'll also add moment to format the retry timestamps.
User: Don't add moment; we use date-fns everywhere. The retry count lives in config/payments.yaml, never hard-coded.
Assistant: Got it. Should I open the PR now?
User: Yes, open it. Maybe we look at GraphQL next quarter.
"""


def _session() -> SourceDocument:
    at = datetime(2026, 3, 4, 10, 12, tzinfo=UTC)
    turns = []
    for i, line in enumerate(_SESSION.splitlines()):
        speaker, _, text = line.partition(": ")
        role = Role.USER if speaker == "User" else Role.AGENT
        turns.append(Turn(index=i, role=role, speaker="Sam (tech lead)" if role is Role.USER else None, text=text,
                          occurred_at=at))  # fmt: skip
    return SourceDocument(ref="demo:webhook-retry-session", source="demo", title="webhook retry, with corrections",
                          turns=tuple(turns), occurred_at=at, extract=True)  # fmt: skip


STORE_DOCUMENTS: tuple[DemoDocument, ...] = (
    *(DemoDocument(subject=STORE, document=d, approve=True) for d in (*_adrs(), *_COMMITS)),
    DemoDocument(subject=STORE, document=_session(), approve=False),  # for the inbox: review it in the demo
)
