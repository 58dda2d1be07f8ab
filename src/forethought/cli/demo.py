"""`forethought demo`: a guided tour of the core and the memory pipeline on a temporary database."""

from __future__ import annotations

import tempfile
from pathlib import Path

from forethought.apps.demo import DemoSession
from forethought.cli.render import show_history, show_recall
from forethought.errors import NotFound
from forethought.facade import Forethought, RetainItem
from forethought.plugins import registry

__all__ = ["run_demo"]

# The tour runs on the project app's demo: its records for the core steps, then its session.
TOUR_APP = "project"


def _tour() -> tuple[DemoSession, list[RetainItem]]:
    demo = registry().app(TOUR_APP).demo()
    if demo.session is None:
        raise NotFound(f"the {TOUR_APP} app's demo has no session to tour")
    return demo.session, [RetainItem(m.text, m.kind, m.tags, m.occurred_at) for m in demo.tour]


def _step(title: str) -> None:
    print(f"\n== {title} ==")


def run_demo(*, embedder: str = "minilm") -> int:
    with tempfile.TemporaryDirectory(prefix="forethought-demo-") as tmp:
        db = Path(tmp) / "demo.db"
        print(f"Forethought demo on a temporary database ({db}), embedder: {embedder}")
        session, memories = _tour()
        space = session.subject
        with Forethought.open(db, embedder=embedder, actor="demo") as memory:
            _step(f"1. retain {len(memories)} project memories for '{space}'")
            notes = memory.scope("generic", space)
            retained = memory.retain_many(notes, memories, source="demo")
            for item in retained:
                print(f"  {item.record.handle}  {item.record.kind:<20} {item.record.statement}")
            again = memory.retain(
                notes,
                "Releases ship through the staging pipeline every Tuesday.",
                kind="process",
                external_id="release-cadence",
            )
            retry = memory.retain(
                notes,
                "Releases ship through the staging pipeline every Tuesday.",
                kind="process",
                external_id="release-cadence",
            )
            print(f"  retain with external id twice: created={again.created}, then created={retry.created}")

            _step("2. recall: hybrid search, each hit with why it ranked")
            print(show_recall(memory.recall(notes, "where should the auth token be stored in the browser?", k=3)))

            _step("3. recall an exact identifier (embeddings blur these; exact terms do not)")
            print(show_recall(memory.recall(notes, "X-Tillpoint-CSRF", k=2)))

            _step("4. supersede: the release day moves to Thursday from April")
            old = retained[3].record
            new = memory.supersede(
                notes,
                old.id,
                "Releases ship through the staging pipeline every Thursday.",
                occurred_at="2026-04-01",
                reason="team moved the release day",
            )
            print("  now:")
            print(_indent(show_recall(memory.recall(notes, "which day do releases ship?", k=1))))
            print("  as of 2026-03-15 (time travel in valid time):")
            print(_indent(show_recall(memory.recall(notes, "which day do releases ship?", k=1, as_of="2026-03-15"))))

            _step("5. retract a memory that was wrong")
            wrong = memory.retain(notes, "The mobile app stores sessions in SQLite.", kind="decision").record
            memory.retract(notes, wrong.id, why="the mobile app was never built")
            still = [h.record.handle for h in memory.recall(notes, "mobile app sessions SQLite", k=5).hits]
            print(f"  retracted {wrong.handle}; recall returns it now: {wrong.handle in still}")

            _step("6. history: versions, supersessions and the audit trail")
            print(show_history(memory.history(notes, new.id)))

            _step("7. export and import (JSON Lines, lossless)")
            export = Path(tmp) / "tillpoint.jsonl"
            count = memory.export_jsonl(notes, export)
            imported = memory.import_jsonl(memory.scope("generic", "tillpoint-copy"), export)
            print(f"  exported {count} records, imported {imported} into 'tillpoint-copy'")

            _step("8. forget: erase a memory from every table and index")
            incident = retained[4].record
            memory.forget(notes, incident.id)
            left = memory.recall(notes, "payment webhook idempotency key double charge", k=5)
            found = any(h.record.id == incident.id for h in left.hits)
            print(f"  forgot {incident.handle}; found afterwards: {found}")

            _pipeline(memory, session)
        print('\nDone. Try it yourself: forethought retain --space myproject --kind decision "..."')
    return 0


def _pipeline(memory: Forethought, session: DemoSession) -> None:
    mode = "heuristic (no API key configured)" if memory.model is None else memory.model.describe()
    _step(f"9. the memory pipeline on a coding session — model: {mode}")
    project = memory.scope("project", session.subject)
    submitted = memory.submit_session(project, session.transcript, title=session.title)
    result = submitted.result.submission
    redacted = next((t for t in submitted.session.turns if "[REDACTED:" in t.text), submitted.session.turns[-1])
    print(f"  stored turn {redacted.index} (secrets never reach the database): {redacted.text}")
    for item in result.items:
        flags = f" [flags: {', '.join(item.record.flags)}]" if item.record.flags else ""
        print(f"  {item.outcome:<9} {item.record.kind:<20} {item.record.statement}{flags}")
    for rejection in result.rejected:
        print(f"  rejected  {rejection.candidate.kind:<20} {rejection.rule}: {rejection.reason}")
    approved = memory.approve_all(project)
    waiting = len(memory.inbox(project).pending)
    print(
        f"  a reviewer bulk-approves {len(approved)} unflagged candidate(s); {waiting} flagged one(s) wait for an edit"
    )

    _step("10. brief before coding, check before finishing")
    brief = memory.brief(project, session.task)
    for used in brief.used:
        print(f"  brief uses {used.record.handle}: {used.reason}")
    report = memory.check(project, session.draft)
    for violation in report.violations:
        print(f"  check: {violation.severity} [{violation.handle}] {violation.message}")
        print(f"         excerpt: {violation.excerpt!r}")

    _step("11. one governed turn: recall, brief, generate, check, remember — traced")
    turn = memory.turn(project, session.question)
    print(_indent(turn.reply))
    print("  stages: " + ", ".join(f"{s.name} {s.ms:.0f}ms" for s in turn.trace.stages))


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
