"""The readable text block that goes with each tool's structured content.

Written for an agent (and a person reading its log): the answer first, then one line per record
with its handle and reason, then a footer naming the mode — heuristic mode is always said.
"""

from __future__ import annotations

import shlex

from forethought.mcp_server.results import AskResult, BriefResult, CheckResult, RecallResult, SubmitResult

__all__ = ["answer", "brief", "check", "mode_line", "recall", "submission"]


def mode_line(mode: str, degraded: str | None) -> str:
    if mode == "heuristic":
        note = "heuristic mode: rule-based, no LLM involved"
        return f"-- {note} ({degraded})" if degraded else f"-- {note}"
    return f"-- mode: {mode}"


def brief(r: BriefResult) -> str:
    lines = [r.block or f"(no memory applies to this task{': ' + r.note if r.note else ''})", ""]
    lines.append(
        f"-- project {r.project}: {len(r.used)} record(s) used, {len(r.filtered)} filtered; "
        f"block {r.block_tokens} tokens vs {r.all_memory_tokens} for all memory"
    )
    lines += [f"-- used [{u.handle}] because {u.reason}" for u in r.used]
    lines += [f"-- filtered [{f.handle}]: {f.reason}" for f in r.filtered]
    lines += [f"-- unreviewed excerpt of session {e.session_id}, turn {e.turn_index} ({e.occurred_at[:10]})"
              for e in r.excerpts]  # fmt: skip
    lines.append(mode_line(r.mode, r.degraded))
    return "\n".join(lines)


def check(r: CheckResult) -> str:
    if not r.violations:
        lines = [f"clean: nothing in the content goes against the memory of {r.project}"]
    else:
        errors = sum(1 for v in r.violations if v.severity == "error")
        lines = [
            f"{len(r.violations)} finding(s) against the memory of {r.project} ({errors} error(s))"
            + ("" if r.clean else ": fix the errors before finishing")
        ]
        for v in r.violations:
            lines.append(f"{v.severity.upper()} [{v.handle}] {v.message}")
            if v.path:
                lines.append(f"  at {v.path}" + (f":{v.line}" if v.line else ""))
            if v.excerpt:
                lines.append(f"  excerpt: {v.excerpt!r}")
            lines.append(f"  fix: {v.fix}")
    lines.append(f"-- {r.records_checked} record(s) checked")
    lines.append(mode_line(r.mode, r.degraded))
    return "\n".join(lines)


def submission(r: SubmitResult) -> str:
    lines = [f"session {r.session}: {r.turns} turn(s) captured for {r.project}"]
    for label, items in (("auto-approved", r.auto_approved), ("pending review", r.pending), ("merged", r.merged)):
        lines += [f"{label}: [{i.handle}] {i.kind}: {i.statement}" for i in items]
    lines += [f"rejected ({x.rule}): {x.kind}: {x.statement} — {x.reason}" for x in r.rejected]
    if len(lines) == 1:
        lines.append("nothing in this session to remember")
    if r.pending:
        command = f"forethought inbox list --app {r.app} --space {shlex.quote(r.project)}"
        lines.append(f"-- {len(r.pending)} candidate(s) wait in the inbox for a person: {command}")
    lines.append(mode_line(r.mode, r.degraded))
    return "\n".join(lines)


def answer(r: AskResult) -> str:
    lines = [r.answer]
    if r.citations:
        lines.append("-- cites: " + ", ".join(f"[{c}]" for c in r.citations))
    lines.append(mode_line(r.mode, r.degraded))
    return "\n".join(lines)


def recall(r: RecallResult) -> str:
    if not r.hits:
        return f"no matching memories in {r.project}"
    lines = []
    for h in r.hits:
        status = "" if h.status == "active" else f" [{h.status}]"
        lines.append(f"[{h.handle}] {h.kind}{status}: {h.statement}")
        lines.append(f"  why: {h.why}")
    return "\n".join(lines)
