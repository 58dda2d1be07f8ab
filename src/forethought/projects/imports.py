"""Importing what a project already has: transcripts, rule files, ADR folders and git history.

`import_path` decides what a path holds (or takes `fmt`): a folder of ADRs, a folder holding rule
files (`--format rules`: a repository's AGENTS.md, CLAUDE.md, .cursor/rules/...), one rule file,
one ADR, or a session transcript in any format the transcript reader knows. `import_git` reads
commit messages. Every document is filed through the façade (`file_documents`), which files each
one once; a transcript is submitted as a session. Nothing is approved here: the inbox decides.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from forethought.apps.project.sources.adr import read_adr_folder
from forethought.apps.project.sources.git import read_git_log
from forethought.apps.project.sources.rulefiles import MAX_RULE_FILE_CHARS, is_rule_file, read_rule_file
from forethought.domain.documents import SourceDocument
from forethought.errors import InvalidInput
from forethought.facade import Forethought, Scope
from forethought.pipeline.documents import DocumentImport
from forethought.pipeline.service import SessionSubmission
from forethought.pipeline.transcripts import FORMATS as TRANSCRIPT_FORMATS
from forethought.projects.documents import read_document

__all__ = ["FORMATS", "MAX_SESSION_CHARS", "ProjectImport", "import_git", "import_path"]

FORMATS = ("auto", "rules", "adr", *[f for f in TRANSCRIPT_FORMATS if f != "auto"])
MAX_SESSION_CHARS = 200_000  # one coding session; a longer one is split before import
MAX_WALK = 20_000  # directory entries looked at when finding rule files
_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", "dist", "build", "target"})


@dataclass(frozen=True)
class ProjectImport:
    what: str  # "rules", "adr", "git" or "transcript"
    documents: DocumentImport | None = None
    session: SessionSubmission | None = None
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (what, why) the reader left out
    truncated: bool = False


def import_path(memory: Forethought, scope: Scope, path: Path, *, fmt: str = "auto",
                human: str | None = None) -> ProjectImport:  # fmt: skip
    """Import one path into the project `scope` (see the module docstring)."""
    if fmt not in FORMATS:
        raise InvalidInput(f"format: {fmt!r} is not one of {', '.join(FORMATS)}")
    if not path.exists():
        raise InvalidInput(f"{path}: no such file or folder")
    if path.is_dir():
        if fmt == "rules":
            return _rule_files(memory, scope, path)
        if fmt not in ("auto", "adr"):
            raise InvalidInput(f"{path} is a folder: give an ADR folder, or --format rules for the rule files in it")
        found = read_adr_folder(path)
        if not found.documents and fmt == "auto" and _find_rule_files(path):
            return _rule_files(memory, scope, path)
        return ProjectImport("adr", memory.file_documents(scope, found.documents), skipped=list(found.skipped))
    text = _read(path)
    # A rule file keeps the name its tool knows it by (`.cursor/rules/x.mdc`), never a machine's path.
    known = "/".join(path.parts[-3:]) if path.suffix == ".mdc" else path.name
    document = read_document(text, path=known, fmt=fmt) if fmt in ("auto", "rules", "adr") else None
    if document is not None:
        return ProjectImport(document.source, memory.file_documents(scope, [document]))
    if fmt == "adr":
        raise InvalidInput(f"{path}: not an ADR (no status or decision section)")
    if len(text) > MAX_SESSION_CHARS:
        raise InvalidInput(
            f"{path}: a session is at most {MAX_SESSION_CHARS:,} characters ({len(text):,} given); split it first"
        )
    transcript_fmt = "auto" if fmt == "adr" else fmt
    session = memory.submit_session(scope, text, title=path.name, fmt=transcript_fmt, human=human)
    return ProjectImport("transcript", session=session)


def import_git(memory: Forethought, scope: Scope, repo: Path, *, since: datetime | None = None,
               environ: Mapping[str, str] | None = None) -> ProjectImport:  # fmt: skip
    """Propose the decisions stated in `repo`'s commit messages (each commit filed once); `environ`
    is the caller's environment for git (its `safe.directory` and the like), never read here."""
    found = read_git_log(repo, since=since, environ=environ)
    documents = memory.file_documents(scope, found.documents)
    return ProjectImport("git", documents, skipped=list(found.skipped), truncated=found.truncated)


def _rule_files(memory: Forethought, scope: Scope, root: Path) -> ProjectImport:
    documents: list[SourceDocument] = []
    skipped: list[tuple[str, str]] = []
    for path in _find_rule_files(root):
        name = path.relative_to(root).as_posix()
        try:
            documents.append(read_rule_file(_read(path), path=name))
        except InvalidInput as exc:
            skipped.append((name, str(exc)))
    if not documents and not skipped:
        raise InvalidInput(f"{root}: no rule files (AGENTS.md, CLAUDE.md, .cursorrules, .cursor/rules/*.mdc, ...)")
    return ProjectImport("rules", memory.file_documents(scope, documents), skipped=skipped)


def _find_rule_files(root: Path) -> list[Path]:
    found: list[Path] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        seen += len(dirs) + len(files)
        if seen > MAX_WALK:
            break
        base = Path(folder)
        found += [base / f for f in sorted(files) if is_rule_file((base / f).relative_to(root).as_posix())]
    return found


def _read(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            data = handle.read(4 * MAX_RULE_FILE_CHARS + 1)
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot read it ({exc.strerror})") from None
    if len(data) > 4 * MAX_RULE_FILE_CHARS:
        raise InvalidInput(f"{path}: over the limit of {4 * MAX_RULE_FILE_CHARS:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{path}: not valid UTF-8") from None
