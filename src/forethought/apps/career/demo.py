"""The career app's demo: a student with a rejected application."""

from __future__ import annotations

from forethought.apps.demo import Demo, DemoMemory

__all__ = ["DEMO"]

DEMO = Demo(
    memories=(
        DemoMemory(
            subject="maya",
            external_id="maya-python",
            kind="skill",
            text="Maya knows Python well (three years).",
            occurred_at="2026-01-10",
            attributes={"name": "Python", "level": "advanced", "has": True},
        ),
        DemoMemory(
            subject="maya",
            external_id="maya-no-java",
            kind="skill",
            text="Maya does not know Java.",
            occurred_at="2026-01-10",
            attributes={"name": "Java", "level": "unknown", "has": False},
        ),
        DemoMemory(
            subject="maya",
            external_id="maya-target",
            kind="target_role",
            text="Maya wants to become a data engineer.",
            occurred_at="2026-01-12",
            attributes={"role": "data engineer"},
        ),
        DemoMemory(
            subject="maya",
            external_id="maya-shopify",
            kind="application",
            text="Maya's application to Shopify for the backend intern role was rejected.",
            occurred_at="2026-02-20",
            attributes={"company": "Shopify", "role": "backend intern", "status": "rejected"},
        ),
        DemoMemory(
            subject="maya",
            external_id="maya-remote",
            kind="preference",
            text="Maya strongly prefers remote work.",
            occurred_at="2026-01-12",
            attributes={"topic": "work_mode", "value": "remote", "avoid": False, "strength": "strong"},
        ),
    ),
)
