"""Staleness: every rule has a review date, and a rule whose evidence is gone is queued.

A current rule is due for re-confirmation `days` (default 180) after a person last vouched for it:
its approval, or its latest confirmation (`note_review(..., "confirmed")`, which renews the date
without a new version). It is also queued when a read marked it stale and nobody confirmed it
since. With a working tree (`repo`), the evidence a rule cites is checked where the code is: the
files it names (`src/payments/gateway.py`, `db/migrations/`) and the functions it says to call
(`` `charge()` ``) — one that no longer exists marks the rule stale in the brief and queues it.
A function the rule forbids is never evidence (its absence is the rule being kept).

Confirming renews; retiring is a retraction (`retract`) or a supersession (`supersede`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path, PurePosixPath

from forethought.apps.project.sources.git_run import Git
from forethought.domain import Action, Record, Status
from forethought.domain.times import utcnow
from forethought.errors import InvalidInput
from forethought.facade import Forethought, Scope
from forethought.projects.rulebook import build_rulebook

__all__ = ["REVIEW_DAYS", "Evidence", "StaleRule", "evidence_of", "missing_evidence", "queue_missing", "review_queue"]

REVIEW_DAYS = 180
MAX_FILES = 50_000  # files listed from a working tree
_EXTENSIONS = (
    "py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|rb|php|cs|c|h|cpp|hpp|swift|sql|css|scss|html|vue|svelte|"
    "yaml|yml|toml|json|ini|cfg|conf|env|sh|bash|md|proto|graphql|tf|lock|gradle|xml|mdc"
)
_ROOTS = ("src/", "lib/", "app/", "apps/", "packages/", "tests/", "test/", "docs/", "config/", "db/", "internal/",
          "cmd/", "pkg/", "scripts/", "migrations/", ".github/", "infra/", "services/")  # fmt: skip
_PATH = re.compile(
    r"(?<![\w./@:-])((?:\.?[\w-]+/)*[\w.-]+\.(?:" + _EXTENSIONS + r")|(?:\.?[\w-]+/)+(?:[\w.-]+/?)?)(?![\w/-])"
)
_CALL = re.compile(r"`((?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w{2,}))\([^`]*\)`")
_NEGATED = re.compile(r"\b(?:never|not|no|don'?t|do not|avoid|instead of|without|stop|banned|removed)\b", re.I)
_CLAUSES = re.compile(r"[;.!?]\s+|\s+[-–—]\s+|,\s+(?:but|not)\s+")


@dataclass(frozen=True)
class Evidence:
    files: tuple[str, ...]  # paths (or folders ending in /) the rule names
    calls: tuple[str, ...]  # functions it says to call, by their last name


@dataclass(frozen=True)
class StaleRule:
    record: Record
    due: datetime  # its review date
    reasons: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # cited evidence not found in the working tree


def evidence_of(record: Record) -> Evidence:
    """The files and functions a rule cites in its statement and quotes (see the module)."""
    texts = [record.statement, *(e.quote for e in record.evidence)]
    files: dict[str, None] = {}
    calls: dict[str, None] = {}
    for text in texts:
        for match in _PATH.finditer(text):
            path = match.group(1).rstrip(".")
            if "*" in path or "://" in text[max(0, match.start() - 8) : match.start() + 3]:
                continue
            if re.search(r"\.(?:" + _EXTENSIONS + r")$", path) or path.endswith("/") or path.startswith(_ROOTS):
                files[path] = None
        for clause in _CLAUSES.split(text):
            if _NEGATED.search(clause):
                continue
            for match in _CALL.finditer(clause):
                calls[match.group(2)] = None
    return Evidence(tuple(files), tuple(calls))


def missing_evidence(
    records: Sequence[Record], repo: Path, *, environ: Mapping[str, str] | None = None
) -> dict[str, list[str]]:
    """For each record citing evidence that `repo`'s working tree no longer holds: what is gone
    (`environ`: the caller's environment for git, never read here)."""
    if not repo.is_dir():
        raise InvalidInput(f"--repo: {repo} is not a folder")
    cited = {r.id: evidence_of(r) for r in records}
    if not any(e.files or e.calls for e in cited.values()):
        return {}
    tree = _files(repo, environ)
    names = {PurePosixPath(p).name for p in tree}
    folders = {str(parent) + "/" for p in tree for parent in PurePosixPath(p).parents if str(parent) != "."}
    present = _defined(repo, sorted({c for e in cited.values() for c in e.calls}), tree)
    out: dict[str, list[str]] = {}
    for record_id, evidence in cited.items():
        gone = [f for f in evidence.files if not _exists(f, tree, names, folders)]
        gone += [f"{c}()" for c in evidence.calls if c not in present]
        if gone:
            out[record_id] = gone
    return out


def review_queue(
    memory: Forethought,
    scope: Scope,
    *,
    repo: Path | None = None,
    days: int = REVIEW_DAYS,
    now: datetime | None = None,
    flag: bool = True,
    environ: Mapping[str, str] | None = None,
) -> list[StaleRule]:
    """The current rules needing re-confirmation, soonest due first; with `repo`, rules whose
    evidence is gone too (and, with `flag`, marked stale so the queue keeps them)."""
    if not 1 <= days <= 3650:
        raise InvalidInput("days: between 1 and 3650")
    now = now or utcnow()
    rules = build_rulebook(memory, scope).rules
    gone = missing_evidence(rules, repo, environ=environ) if repo is not None else {}
    queue: list[StaleRule] = []
    for record in rules:
        vouched, flagged = _marks(memory, scope, record)
        due = vouched + timedelta(days=days)
        reasons = [f"not re-confirmed since {vouched.date().isoformat()} (review date {due.date().isoformat()})"] if (
            due <= now) else []  # fmt: skip
        if flagged is not None:
            reasons.append(f"marked stale: {flagged}")
        missing = gone.get(record.id, [])
        if missing:
            reasons.append("cited evidence no longer in the working tree: " + ", ".join(missing))
            if flag and flagged is None:
                _mark(memory, scope, record, missing)
        if reasons:
            queue.append(StaleRule(record, due, reasons, missing))
    return sorted(queue, key=lambda s: (not s.missing, s.due, s.record.id))


def queue_missing(memory: Forethought, scope: Scope, records: Sequence[Record], gone: dict[str, list[str]]) -> None:
    """Mark stale, once, each of `records` whose evidence `gone` names (a brief that saw it gone)."""
    own = memory.space(scope).id
    for record in records:
        if record.id in gone and record.space_id == own and _marks(memory, scope, record)[1] is None:
            _mark(memory, scope, record, gone[record.id])


def _mark(memory: Forethought, scope: Scope, record: Record, missing: list[str]) -> None:
    memory.note_review(scope, record.id, "stale", reason="evidence gone: " + ", ".join(missing)[:900])


def _marks(memory: Forethought, scope: Scope, record: Record) -> tuple[datetime, str | None]:
    """When a person last vouched for the record, and the stale mark made after that (if any)."""
    vouched: datetime | None = None
    flagged: str | None = None
    for event in memory.audit_events(scope, record_id=record.id, limit=100):  # newest first
        verdict = event.details.get("verdict") if event.action is Action.REVIEWED else None
        if verdict == "stale" and flagged is None and vouched is None:
            flagged = event.reason or "by a read"
        approved = event.action is Action.STATUS_CHANGED and event.to_status == Status.ACTIVE.value
        if verdict == "confirmed" or approved:
            vouched = event.at
            break
    return vouched or record.recorded_at, flagged


def _exists(path: str, tree: set[str], names: set[str], folders: set[str]) -> bool:
    clean = path.lstrip("./") if path.startswith("./") else path
    if clean.endswith("/"):
        return clean in folders
    if "/" in clean:
        return clean in tree or any(p.endswith("/" + clean) for p in tree)
    return clean in names


def _files(repo: Path, environ: Mapping[str, str] | None) -> set[str]:
    """The working tree's files (tracked and untracked, ignored ones left out when it is a git tree)."""
    try:
        out = Git(repo, environ).run("ls-files", "-z", "--cached", "--others", "--exclude-standard")
        return set(out.decode("utf-8", "replace").split("\0")[:MAX_FILES]) - {""}
    except InvalidInput:  # not a git tree, or no git: walk it
        found: set[str] = set()
        for folder, dirs, files in os.walk(repo):
            dirs[:] = [d for d in dirs if d not in (".git", "node_modules", ".venv", "__pycache__")]
            found.update(str(Path(folder, f).relative_to(repo).as_posix()) for f in files)
            if len(found) > MAX_FILES:
                break
        return found


def _defined(repo: Path, calls: Iterable[str], tree: set[str]) -> set[str]:
    """Which of `calls` still appear in the tree's text files (as whole words)."""
    wanted = list(calls)
    if not wanted:
        return set()
    found: set[str] = set()
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, wanted)) + r")\b")
    for rel in sorted(tree)[:MAX_FILES]:
        if not re.search(r"\.(?:" + _EXTENSIONS + r")$", rel) or rel.endswith((".lock", ".md")):
            continue
        try:
            with (repo / rel).open("rb") as handle:
                text = handle.read(2_000_000).decode("utf-8", "replace")
        except OSError:
            continue
        found.update(pattern.findall(text))
        if len(found) == len(wanted):
            break
    return found
