"""The support app's demo: a customer whose first fix failed."""

from __future__ import annotations

from forethought.apps.demo import Demo, DemoMemory

__all__ = ["DEMO"]

DEMO = Demo(
    memories=(
        DemoMemory(
            subject="acme-corp",
            external_id="acme-sync",
            kind="problem_reported",
            text="Acme's invoices stopped syncing to QuickBooks after the March update.",
            occurred_at="2026-03-03",
            attributes={"summary": "invoices stopped syncing to QuickBooks", "product": "QuickBooks sync"},
        ),
        DemoMemory(
            subject="acme-corp",
            external_id="acme-cache-tried",
            kind="action_attempted",
            text="The customer cleared the browser cache to fix the QuickBooks sync.",
            occurred_at="2026-03-03",
            attributes={"action": "clear the browser cache", "problem": "QuickBooks sync"},
        ),
        DemoMemory(
            subject="acme-corp",
            external_id="acme-cache-failed",
            kind="outcome_reported",
            text="Clearing the browser cache did not fix the QuickBooks sync.",
            occurred_at="2026-03-04",
            attributes={"action": "clear the browser cache", "outcome": "failed", "problem": "QuickBooks sync"},
        ),
    ),
)
