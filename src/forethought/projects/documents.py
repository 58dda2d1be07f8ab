"""A project's rule files and ADRs given as text (an API body, a browser upload), read and filed once.

The server never reads a path the caller names: each file arrives with its text, and its path only
decides how the text is read. A rule-file name the reader knows (AGENTS.md, CLAUDE.md, .cursorrules,
.cursor/rules/*.mdc...) is a rule file; any other Markdown file is read as an ADR, the ADRs of one
request linked to each other as a folder's are (`link_adrs`); anything else is refused, naming the
file. Markdown that is not an ADR (a README, a guide) is reported as skipped. Filing goes through
the façade, which files each document once: sending the same files again files nothing new.

Shared by the HTTP API (`POST .../documents`), the workspace's import page and the CLI's
`project import` of one file (`read_document`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from forethought.apps.project.sources.adr import link_adrs, read_adr
from forethought.apps.project.sources.rulefiles import MAX_RULE_FILE_CHARS, is_rule_file, read_rule_file
from forethought.domain.documents import SourceDocument
from forethought.domain.limits import clean_text
from forethought.errors import InvalidInput
from forethought.facade import Forethought, Scope
from forethought.pipeline.documents import DocumentImport

__all__ = ["MAX_FILES", "MAX_FILE_CHARS", "MAX_PATH_CHARS", "Filed", "file_texts", "read_document", "read_texts"]

MAX_FILES = 50
MAX_FILE_CHARS = MAX_RULE_FILE_CHARS  # 200,000: a rule file's bound, and an ADR's here
MAX_PATH_CHARS = 500
_MARKDOWN = (".md", ".markdown")
_KNOWN = "a rule file (AGENTS.md, CLAUDE.md, .cursorrules, .cursor/rules/*.mdc...) or an ADR (.md)"


@dataclass(frozen=True)
class Read:
    documents: list[SourceDocument]
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why) no document came from


@dataclass(frozen=True)
class Filed:
    """What filing gave: the façade's result and the files no document came from."""

    result: DocumentImport
    skipped: list[tuple[str, str]]
    rule_files: int
    adrs: int


def read_document(text: str, *, path: str, fmt: str = "auto") -> SourceDocument | None:
    """One file's text as a rule file (by its name, or `fmt` "rules") or an ADR (Markdown, or `fmt`
    "adr"); None when it is neither (a transcript, a README)."""
    if fmt == "rules" or (fmt == "auto" and is_rule_file(path)):
        return read_rule_file(text, path=path)
    if fmt == "adr" or (fmt == "auto" and PurePosixPath(path).suffix.lower() in _MARKDOWN):
        return read_adr(text, path=path)
    return None


def read_texts(files: Sequence[tuple[str, str]]) -> Read:
    """Each (path, text) read as a rule file or an ADR; InvalidInput naming the first bad file."""
    if not files:
        raise InvalidInput("files: give at least one file")
    if len(files) > MAX_FILES:
        raise InvalidInput(f"files: at most {MAX_FILES} a request ({len(files)} given)")
    rules: list[SourceDocument] = []
    adrs: list[SourceDocument] = []
    skipped: list[tuple[str, str]] = []
    seen: set[str] = set()
    for raw_path, text in files:
        path = clean_text(raw_path, field="file path", limit=MAX_PATH_CHARS).replace("\\", "/")
        if path in seen:
            raise InvalidInput(f"{path}: given twice")
        seen.add(path)
        if len(text) > MAX_FILE_CHARS:
            raise InvalidInput(f"{path}: at most {MAX_FILE_CHARS:,} characters a file ({len(text):,} given)")
        document = read_document(text, path=path)
        if document is not None:
            (rules if document.source == "rules" else adrs).append(document)
        elif PurePosixPath(path).suffix.lower() in _MARKDOWN:
            skipped.append((path, "Markdown, but not an ADR (no status or decision section)"))
        else:
            raise InvalidInput(f"{path}: not {_KNOWN}")
    return Read([*rules, *link_adrs(adrs)], skipped)


def file_texts(memory: Forethought, scope: Scope, files: Sequence[tuple[str, str]]) -> Filed:
    """Read every file first (bad input files nothing), then file the documents through the façade."""
    read = read_texts(files)
    rule_files = sum(1 for d in read.documents if d.source == "rules")
    result = memory.file_documents(scope, read.documents)
    return Filed(result, read.skipped, rule_files, len(read.documents) - rule_files)
