"""`forethought serve --demo`: each app's demo memories (its `demo` hook) in the `demo` workspace,
and a demo API key kept beside the database so every run prints the same working key.

Seeding is idempotent: every memory has an external id, so a second run finds each one and
creates nothing. Keys are stored hashed, so the full demo key is kept in `<db>.demo-key` (mode
0600) — a development convenience; never use `--demo` on a server others can reach.
"""

from __future__ import annotations

import os
from pathlib import Path

from forethought.apps.base import App
from forethought.apps.demo import DemoDocument, DemoMemory
from forethought.domain import RelationLabel
from forethought.facade import Forethought
from forethought.plugins import registry
from forethought.targets import local_file_beside

__all__ = ["DEMO_WORKSPACE", "demo_key", "demo_memories", "key_file", "seed_demo"]

DEMO_WORKSPACE = "demo"


# Spaces list in the order they were created: the built-in apps' demos keep the order they were
# always seeded in; a plugin's app with a demo comes after them.
FIRST = ("career", "support", "project", "generic")


def demo_memories() -> list[tuple[App, DemoMemory]]:
    """Every registered app's demo memories, each with its app, in seeding order."""
    plugins = registry()
    names = [n for n in FIRST if n in plugins.names("app")]
    names += [n for n in plugins.names("app") if n not in FIRST]
    return [(app, item) for app in map(plugins.app, names) for item in app.demo().memories]


def seed_demo(memory: Forethought) -> int:
    """Retain the demo memories and file the demo documents that are missing (approving what a
    document marked `approve` proposes); returns how many records were created."""
    created = 0
    for app, item in demo_memories():
        done = memory.retain(
            memory.scope(app, item.subject, workspace=DEMO_WORKSPACE),
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
    return created + _seed_documents(memory)


def key_file(db: str | Path) -> Path:
    return local_file_beside(db, "demo-key")


def demo_key(memory: Forethought, db: str | Path) -> str:
    """The demo workspace's admin key: the one in `<db>.demo-key` while it still works as an
    admin key, else a new one written there (readable by this user only)."""
    path = key_file(db)
    if path.is_file():
        saved = path.read_text("utf-8").strip()
        found = memory.authenticate(saved)
        if found is not None and found.workspace == DEMO_WORKSPACE and found.admin:
            return saved
    _, full = memory.create_api_key(DEMO_WORKSPACE, name="demo", role="admin")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # also when the file existed with wider permissions
        os.write(fd, (full + "\n").encode("utf-8"))
    finally:
        os.close(fd)
    return full


def _seed_documents(memory: Forethought) -> int:
    """Each subject's documents in one filing (a superseded ADR then links to its successor)."""
    plugins = registry()
    created = 0
    for name in [n for n in FIRST if n in plugins.names("app")] + sorted(set(plugins.names("app")) - set(FIRST)):
        app = plugins.app(name)
        by_subject: dict[str, list[DemoDocument]] = {}
        for item in app.demo().documents:
            by_subject.setdefault(item.subject, []).append(item)
        for subject, items in by_subject.items():
            scope = memory.scope(app, subject, workspace=DEMO_WORKSPACE)
            filed = memory.file_documents(scope, [item.document for item in items])
            approve = {item.document.ref for item in items if item.approve}
            for document in filed.documents:
                created += len(document.history)
                for entry in document.submission.items if document.submission else ():
                    created += entry.outcome == "pending"
                    if entry.outcome != "pending" or document.ref not in approve or entry.record.flags:
                        continue  # flagged text waits for a person, demo or not
                    conflicting = entry.relation.label is RelationLabel.CONFLICTS
                    memory.approve(scope, entry.record.id, reason="demo data: the team's own record",
                                   conflict="keep_both" if conflicting else None)  # fmt: skip
    return created
