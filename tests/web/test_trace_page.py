"""A stored trace on the workspace's pages: every typed part shown, records forgotten since shown
by handle alone."""

from __future__ import annotations

from datetime import datetime

from forethought import Forethought, SpaceKey
from tests.conftest import scope_of
from tests.pipeline.trace_rows import TRACE_ID, blocked_turn_row
from tests.web.conftest import Browser

BASE = "/web/apps/project/tillpoint"
TILLPOINT = SpaceKey(workspace="acme", subject_type="project", subject_id="tillpoint")


def _seed(memory: Forethought) -> None:
    space_id = memory.space(scope_of(memory, TILLPOINT)).id
    row = blocked_turn_row(space_id)
    when = datetime.fromisoformat(row["created_at"])
    memory.store.traces.add(space_id, TRACE_ID, kind="turn", session_id=row["session_id"], created_at=when, data=row)


def test_a_stored_trace_shows_each_part(alice: Browser, memory: Forethought) -> None:
    _seed(memory)
    page = alice.get(f"{BASE}/activity/traces/{TRACE_ID}")
    assert page.status_code == 200, page.text
    text = page.text
    assert "llm:fake" in text and "blocked" in text and "regenerated" in text
    assert "2026-12-01 09:54 UTC" in text
    assert "f3bf9kdc" in text and "llm: it is about this" in text and "forgotten" in text
    assert "xwz4k5xc" in text and "llm: not about this task" in text
    assert "matches a pattern memory forbids" in text and "[f3bf9kdc, pattern]" in text
    assert "<dt>Proposed</dt><dd>2</dd>" in text and "<dt>Approved</dt><dd>01s7fjr9</dd>" in text
    assert "note: evidence_not_found — the evidence is not in the session" in text
    assert "prompt_tokens 2062 · completion_tokens 76" in text
    assert "memorize: LLM extraction failed (invalid_output); heuristic extractor used" in text


def test_the_activity_list_and_the_chat_panel_read_the_same_trace(alice: Browser, memory: Forethought) -> None:
    _seed(memory)
    listed = alice.get(f"{BASE}/activity").text.split('id="traces"')[1].split("</table>")[0]
    assert f"activity/traces/{TRACE_ID}" in listed and "llm:fake" in listed and "blocked" in listed
    assert '<td class="num">1</td>' in listed and "57 ms" in listed  # one used, one filtered; the stages' sum
    panel = alice.get(f"{BASE}/chat?trace={TRACE_ID}").text.split('id="memory-panel"')[1]
    assert "llm: it is about this" in panel and "matches a pattern memory forbids" in panel
    assert "0 to review" in panel and "1 approved" in panel and "1 filtered" in panel
