"""Checking a unified diff: only the lines it adds, each file with its own path.

`git diff`, `git show` and `diff -u` output is split by file (`+++ b/<path>`); the added lines of
each file (`+`, not `+++`) are checked as one draft with that path, so a rule scoped to Python
files or to `src/payments/` judges only the files it is about, and every finding names the file
and the line number in the new version. Removed and context lines are never checked: deleting a
forbidden call is not a violation. A `require` finding (something the draft leaves out) stands
only for a file the diff creates — a hunk of an existing file shows too little of it to say what
it lacks.

A diff of several files is recalled for twice over, not once per file with every signal: each
file by its own words and identifiers (keyword and exact-term search, no embedding), the diff as a
whole by meaning as well (one embedding); each file is checked against both sets, and its own
text decides which of them apply. Embedding every file's text is what a long diff would
otherwise spend its time on. Failed attempts are recalled for apart once, for the whole diff
(every file is checked against them), not again for each file.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from forethought.errors import InvalidInput
from forethought.llm.base import ChatModel
from forethought.memory import Memory, Scope
from forethought.pipeline.brief import elapsed_ms
from forethought.pipeline.check import MAX_DRAFT_CHARS, check_draft
from forethought.pipeline.check_recall import recall_for
from forethought.pipeline.reports import CheckReport, Violation
from forethought.recall.config import RecallConfig

__all__ = ["MAX_DIFF_FILES", "FileChange", "check_diff", "looks_like_diff", "parse_diff"]

MAX_DIFF_FILES = 500
# A file of a diff is recalled for by its words and identifiers alone (see the module).
LEXICAL = RecallConfig(name="lexical", semantic_weight=0.0)
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(?P<start>\d+)(?:,\d+)? @@")
_NEW_PATH = re.compile(r"^\+\+\+ (?:b/)?(?P<path>[^\t\n]+)")


@dataclass(frozen=True)
class FileChange:
    path: str
    new_file: bool
    added: tuple[tuple[int, str], ...]  # (line number in the new file, text)

    @property
    def draft(self) -> str:
        return "\n".join(text for _, text in self.added)


def looks_like_diff(text: str) -> bool:
    """Whether `text` is a unified diff (a `+++` file header followed by a hunk header)."""
    head = text[:20_000]
    return bool(re.search(r"^\+\+\+ ", head, re.M) and re.search(r"^@@ -\d", head, re.M))


def parse_diff(text: str) -> list[FileChange]:
    """The files a unified diff touches, with the lines it adds; InvalidInput if it is not one."""
    lines = text.replace("\r\n", "\n").split("\n")
    changes: list[FileChange] = []
    path: str | None = None
    new_file = False
    added: list[tuple[int, str]] = []
    number = 0

    def flush() -> None:
        if path is not None and added:
            changes.append(FileChange(path, new_file, tuple(added)))

    for i, raw in enumerate(lines):
        # A file header is a '--- ' line directly followed by '+++ ' (a removed line "-- x" is not).
        if raw.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            flush()
            match = _NEW_PATH.match(lines[i + 1])
            target = match["path"].strip() if match else ""
            path = None if target == "/dev/null" else target  # a deleted file adds nothing
            new_file = raw[4:].split("\t")[0].strip() == "/dev/null"
            added, number = [], 0
            continue
        if path is None:
            continue
        if (hunk := _HUNK.match(raw)) is not None:
            number = int(hunk["start"])
        elif raw.startswith("+++ ") and i > 0 and lines[i - 1].startswith("--- "):
            continue  # the header's second line
        elif raw.startswith("+") and number:
            added.append((number, raw[1:]))
            number += 1
        elif raw.startswith(" ") and number:
            number += 1
    flush()
    if len(changes) > MAX_DIFF_FILES:
        raise InvalidInput(f"diff: at most {MAX_DIFF_FILES} files ({len(changes)} given)")
    if not changes and not looks_like_diff(text):
        raise InvalidInput("diff: not a unified diff (no '--- '/'+++ ' file header with a hunk)")
    return changes


def check_diff(memory: Memory, scope: Scope, diff: str, *, model: ChatModel | None = None) -> CheckReport:
    """Every violation in the lines `diff` adds, each naming its file and line (see the module)."""
    if len(diff) > 4 * MAX_DRAFT_CHARS:
        raise InvalidInput(f"diff: longer than {4 * MAX_DRAFT_CHARS} characters")
    violations: list[Violation] = []
    reports: list[CheckReport] = []
    changes = parse_diff(diff)
    start = time.perf_counter()
    many = len(changes) > 1
    whole = recall_for(memory, scope, "\n".join(c.draft for c in changes))[0] if many else []
    recall_ms = elapsed_ms(start)
    for change in changes:
        recalled = None
        if many:
            step = time.perf_counter()
            recalled = recall_for(memory, scope, change.draft, strategy=LEXICAL, also=whole, failed_apart=False)
            recall_ms += elapsed_ms(step)
        report = check_draft(memory, scope, change.draft, model=model, path=change.path, recalled=recalled)
        reports.append(report)
        for v in report.violations:
            if not v.excerpt and not change.new_file:
                continue
            violations.append(v.model_copy(update={"path": change.path, "line": _line_of(v.excerpt, change)}))
    timings: dict[str, float] = {"recall": round(recall_ms, 3)} if many else {}
    for r in reports:
        for name, ms in r.timings_ms.items():
            timings[name] = round(timings.get(name, 0.0) + ms, 3)
    timings["total"] = elapsed_ms(start)
    degraded = next((r.degraded for r in reports if r.degraded), None)
    return CheckReport(
        violations=violations,
        dropped_judge_findings=sum(r.dropped_judge_findings for r in reports),
        skipped_patterns=[s for r in reports for s in r.skipped_patterns],
        records_checked=max((r.records_checked for r in reports), default=0),
        clean=not any(v.severity == "error" for v in violations),
        mode=reports[0].mode if reports else "heuristic",
        degraded=degraded,
        timings_ms=timings,
    )


def _line_of(excerpt: str, change: FileChange) -> int | None:
    """The new-file line number where a finding's excerpt starts, when it quotes an added line."""
    first = excerpt.strip().split("\n", 1)[0].strip()
    if not first:
        return None
    return next((number for number, text in change.added if first in text), None)
