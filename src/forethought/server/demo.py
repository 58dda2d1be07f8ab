"""Demo data for `forethought serve --demo`: a few memories per app in the `demo` workspace, and
a demo API key kept beside the database so every run prints the same working key.

Seeding is idempotent: every memory has an external id, so a second run finds each one and
creates nothing. Keys are stored hashed, so the full demo key is kept in `<db>.demo-key` (mode
0600) — a development convenience; never use `--demo` on a server others can reach.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forethought.domain import CheckPatterns
from forethought.facade import Forethought

__all__ = ["DEMO", "DEMO_WORKSPACE", "DemoMemory", "demo_key", "key_file", "seed_demo"]

DEMO_WORKSPACE = "demo"


@dataclass(frozen=True)
class DemoMemory:
    app: str
    subject: str
    external_id: str
    kind: str
    text: str
    occurred_at: str
    attributes: dict[str, Any] | None = None
    tags: tuple[str, ...] = ()
    check: CheckPatterns | None = None


DEMO: list[DemoMemory] = [
    # career: a student with a rejected application
    DemoMemory("career", "maya", "maya-python", "skill", "Maya knows Python well (three years).", "2026-01-10",
               {"name": "Python", "level": "advanced", "has": True}),
    DemoMemory("career", "maya", "maya-no-java", "skill", "Maya does not know Java.", "2026-01-10",
               {"name": "Java", "level": "unknown", "has": False}),
    DemoMemory("career", "maya", "maya-target", "target_role", "Maya wants to become a data engineer.", "2026-01-12",
               {"role": "data engineer"}),
    DemoMemory("career", "maya", "maya-shopify", "application",
               "Maya's application to Shopify for the backend intern role was rejected.", "2026-02-20",
               {"company": "Shopify", "role": "backend intern", "status": "rejected"}),
    DemoMemory("career", "maya", "maya-remote", "preference", "Maya strongly prefers remote work.", "2026-01-12",
               {"topic": "work_mode", "value": "remote", "avoid": False, "strength": "strong"}),
    # support: a customer whose first fix failed
    DemoMemory("support", "acme-corp", "acme-sync", "problem_reported",
               "Acme's invoices stopped syncing to QuickBooks after the March update.", "2026-03-03",
               {"summary": "invoices stopped syncing to QuickBooks", "product": "QuickBooks sync"}),
    DemoMemory("support", "acme-corp", "acme-cache-tried", "action_attempted",
               "The customer cleared the browser cache to fix the QuickBooks sync.", "2026-03-03",
               {"action": "clear the browser cache", "problem": "QuickBooks sync"}),
    DemoMemory("support", "acme-corp", "acme-cache-failed", "outcome_reported",
               "Clearing the browser cache did not fix the QuickBooks sync.", "2026-03-04",
               {"action": "clear the browser cache", "outcome": "failed", "problem": "QuickBooks sync"}),
    # project: a code project with decisions
    DemoMemory("project", "tillpoint", "tp-postgres", "decision", "Use Postgres for the ledger service.", "2026-02-01",
               {"what": "use Postgres for the ledger service", "area": "db"}, ("db",)),
    DemoMemory("project", "tillpoint", "tp-date-fns", "decision",
               "Format dates with date-fns; never use moment.js in this project.", "2026-02-10",
               {"what": "format dates with date-fns", "alternatives_rejected": ["moment.js"], "area": "frontend"},
               ("frontend",), CheckPatterns(forbid=(r"""(?:from|require\()\s*['"]moment['"]""",))),
    DemoMemory("project", "tillpoint", "tp-tokens", "security_constraint",
               "Refresh tokens live in httpOnly cookies; never put them in localStorage.", "2026-02-12",
               {"rule": "refresh tokens only in httpOnly cookies", "area": "auth"}, ("auth",)),
    # generic: one person's notes
    DemoMemory("generic", "me", "me-short", "preference", "I prefer short answers with code first.", "2026-01-05",
               {"polarity": "likes"}),
]  # fmt: skip


def seed_demo(memory: Forethought) -> int:
    """Retain the demo memories that are missing; returns how many were created."""
    created = 0
    for item in DEMO:
        done = memory.retain(
            memory.scope(item.app, item.subject, workspace=DEMO_WORKSPACE),
            item.text,
            kind=item.kind,
            tags=item.tags,
            occurred_at=item.occurred_at,
            external_id=item.external_id,
            attributes=item.attributes,
            source="demo",
            check=item.check,
        )
        created += done.created
    return created


def key_file(db: str | Path) -> Path:
    db = Path(db)
    return db.with_name(db.name + ".demo-key")


def demo_key(memory: Forethought, db: str | Path) -> str:
    """The demo workspace's key: the one in `<db>.demo-key` while it still works, else a new one
    written there (readable by this user only)."""
    path = key_file(db)
    if path.is_file():
        saved = path.read_text("utf-8").strip()
        found = memory.authenticate(saved)
        if found is not None and found.workspace == DEMO_WORKSPACE:
            return saved
    _, full = memory.create_api_key(DEMO_WORKSPACE, name="demo")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # also when the file existed with wider permissions
        os.write(fd, (full + "\n").encode("utf-8"))
    finally:
        os.close(fd)
    return full
