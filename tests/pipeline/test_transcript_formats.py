"""Transcripts as real tools write them: Codex CLI rollouts, Claude Code logs, Cursor exports,
Markdown headings and plain text between named people — and imports dated when they happened."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime

import pytest

from forethought import Forethought, InvalidInput, Role, Status
from forethought.pipeline.transcripts import parse_transcript, started_at


def _jsonl(*items: object) -> str:
    return "\n".join(json.dumps(i) for i in items) + "\n"


def _codex_message(at: str, role: str, text: str) -> dict[str, object]:
    part = "input_text" if role == "user" else "output_text"
    return {"timestamp": at, "type": "response_item",
            "payload": {"type": "message", "role": role, "content": [{"type": part, "text": text}]}}  # fmt: skip


CODEX = _jsonl(
    {"timestamp": "2026-03-04T09:00:00.000Z", "type": "session_meta",
     "payload": {"id": "0199-aa", "timestamp": "2026-03-04T09:00:00.000Z", "cwd": "/srv/wharf", "cli_version": "0.3"}},
    _codex_message("2026-03-04T09:00:00.100Z", "user",
                   "<environment_context>\n  <cwd>/srv/wharf</cwd>\n  <sandbox_mode>workspace-write</sandbox_mode>\n"
                   "</environment_context>"),
    _codex_message("2026-03-04T09:00:05.000Z", "user", "We decided the ingest workers never retry a poison message."),
    {"timestamp": "2026-03-04T09:00:05.001Z", "type": "event_msg",
     "payload": {"type": "user_message", "message": "We decided the ingest workers never retry a poison message."}},
    {"timestamp": "2026-03-04T09:00:07.000Z", "type": "response_item",
     "payload": {"type": "function_call", "name": "shell", "arguments": "{\"command\": [\"rg\", \"retry\"]}",
                 "call_id": "c1"}},
    {"timestamp": "2026-03-04T09:00:08.000Z", "type": "response_item",
     "payload": {"type": "function_call_output", "call_id": "c1", "output": "src/ingest/worker.py:12: retry(3)"}},
    _codex_message("2026-03-04T09:00:12.000Z", "assistant", "Understood: poison messages go to the dead-letter queue."),
    {"timestamp": "2026-03-04T09:00:12.001Z", "type": "event_msg",
     "payload": {"type": "agent_message", "message": "Understood: poison messages go to the dead-letter queue."}},
    {"timestamp": "2026-03-04T09:00:12.002Z", "type": "event_msg", "payload": {"type": "token_count", "info": None}},
)  # fmt: skip


def test_a_codex_rollout_gives_its_conversation_once_without_the_injected_context() -> None:
    turns = parse_transcript(CODEX)
    assert [(t.role, t.text) for t in turns] == [
        (Role.USER, "We decided the ingest workers never retry a poison message."),
        (Role.TOOL, "src/ingest/worker.py:12: retry(3)"),
        (Role.AGENT, "Understood: poison messages go to the dead-letter queue."),
    ]
    assert turns[0].occurred_at == datetime(2026, 3, 4, 9, 0, 5, tzinfo=UTC)
    assert started_at(turns) == datetime(2026, 3, 4, 9, 0, 5, tzinfo=UTC)


def test_a_claude_code_log_keeps_what_people_said_and_tool_output_apart() -> None:
    log = _jsonl(
        {"type": "summary", "summary": "Ingest retries", "leafUuid": "x"},
        {"type": "user", "isMeta": True, "timestamp": "2026-03-05T10:00:00Z",
         "message": {"role": "user", "content": "<command-name>/clear</command-name>"}},
        {"type": "user", "timestamp": "2026-03-05T10:00:01Z", "sessionId": "s1",
         "message": {"role": "user", "content": "Use structlog for every new module."}},
        {"type": "assistant", "timestamp": "2026-03-05T10:00:04Z", "sessionId": "s1",
         "message": {"role": "assistant", "content": [
             {"type": "thinking", "thinking": "They want structured logs."},
             {"type": "text", "text": "I'll switch the new modules to structlog."},
             {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "log.py"}}]}},
        {"type": "user", "timestamp": "2026-03-05T10:00:05Z", "sessionId": "s1",
         "message": {"role": "user",
                     "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "import logging"}]}},
    )  # fmt: skip
    turns = parse_transcript(log)
    assert [(t.role, t.text) for t in turns] == [
        (Role.USER, "Use structlog for every new module."),
        (Role.AGENT, "I'll switch the new modules to structlog."),
        (Role.TOOL, "import logging"),
    ]
    assert turns[0].occurred_at == datetime(2026, 3, 5, 10, 0, 1, tzinfo=UTC)


CURSOR = """# Pagination of the search API
_Exported on 3/6/2026 at 14:05:09 GMT+1 from Cursor (1.2.4)_

---

**User**

Cursor-based pagination only; offset pagination is banned for the search API.

---

**Cursor**

Got it. I'll use an opaque cursor:

```ts
type Page = { items: Hit[]; next?: string }
```

---

**User**

Good.
"""


def test_a_cursor_export_reads_its_speakers_blocks_and_export_time() -> None:
    turns = parse_transcript(CURSOR)
    assert [t.role for t in turns] == [Role.USER, Role.AGENT, Role.USER]
    assert turns[0].text == "Cursor-based pagination only; offset pagination is banned for the search API."
    assert "type Page" in turns[1].text and not turns[1].text.endswith("---")
    assert turns[0].occurred_at == datetime(2026, 3, 6, 13, 5, 9, tzinfo=UTC)


def test_markdown_headings_name_the_speakers_but_not_inside_code() -> None:
    text = "## User\nKeep the CLI flags kebab-case.\n\n## Assistant\nSure.\n```md\n## User\nnot a turn\n```\n"
    turns = parse_transcript(text)
    assert [(t.role, t.text.splitlines()[0]) for t in turns] == [
        (Role.USER, "Keep the CLI flags kebab-case."),
        (Role.AGENT, "Sure."),
    ]
    assert "not a turn" in turns[1].text


def test_plain_text_between_named_people_infers_the_assistant() -> None:
    text = "Date: 2026-03-07 08:30\nMaria: We decided to pin numpy below 2 for the exporter.\nAide: Noted.\n"
    turns = parse_transcript(text)
    assert [(t.role, t.speaker) for t in turns] == [(Role.USER, "Maria"), (Role.AGENT, "Aide")]
    assert turns[0].occurred_at == datetime(2026, 3, 7, 8, 30, tzinfo=UTC)
    named = "Maria: Ship it on Monday.\nKwame: Fine by me.\nMaria: And tag it.\nKwame: Will do.\n"
    assert {t.role for t in parse_transcript(named)} == {Role.USER}  # two people: nobody is the assistant
    chosen = parse_transcript(named, human="Maria")
    assert [t.role for t in chosen] == [Role.USER, Role.AGENT, Role.USER, Role.AGENT]


def test_unknown_formats_and_broken_inputs_are_refused_clearly() -> None:
    with pytest.raises(InvalidInput, match="unknown format 'xml'"):
        parse_transcript("User: hi", fmt="xml")
    with pytest.raises(InvalidInput, match="line 2 is not JSON"):
        parse_transcript('{"type": "user", "message": {"content": "a"}}\n{oops\n')
    with pytest.raises(InvalidInput, match="no turns"):
        parse_transcript(_jsonl({"timestamp": "2026-03-04T09:00:00Z", "type": "session_meta", "payload": {}}))


def test_named_speakers_give_candidates_from_the_person_only(memory: Forethought) -> None:
    text = (
        "Maria: We decided to pin numpy below 2 for the exporter.\n"
        "Aide: I suggest we also always vendor the exporter's wheels.\n"
        "Maria: Never run the exporter against the production bucket.\n"
    )
    found = memory.extract("project", text)
    assert found.candidates, "a chat between named speakers still gives candidates"
    assert found.turns[1].role is Role.AGENT and found.turns[1].speaker == "Aide"
    numpy = [c for c in found.candidates if "numpy" in c.statement]
    assert numpy and all(c.asserted_by is Role.USER for c in numpy)
    assert all(c.asserted_by is Role.AGENT for c in found.candidates if "vendor" in c.statement)


def test_imported_memories_are_dated_when_the_session_happened(memory: Forethought) -> None:
    wharf = memory.scope("generic", "wharf")
    done = memory.submit_session(wharf, CODEX, title="rollout", fmt="auto")
    assert done.session.created_at == datetime(2026, 3, 4, 9, 0, 5, tzinfo=UTC)
    records = [i.record for i in done.result.submission.items]
    assert records and all(r.occurred_at == datetime(2026, 3, 4, 9, 0, 5, tzinfo=UTC) for r in records)
    assert all(r.recorded_at > r.occurred_at for r in records)  # stored now, true since March
    memory.approve_all(wharf)
    before = memory.recall(wharf, "poison message retry", as_of="2026-03-01").hits
    after = memory.recall(wharf, "poison message retry", as_of="2026-03-10").hits
    assert before == [] and after


def test_a_caller_dates_an_undated_session_and_names_the_person(memory: Forethought) -> None:
    wharf = memory.scope("project", "wharf")
    text = "Kwame: Never run the exporter against the production bucket.\nRita: Understood.\n"
    when = datetime(2026, 2, 9, 14, 30, tzinfo=UTC)
    done = memory.submit_session(wharf, text, title="chat", human="Rita", occurred_at=when)
    assert done.session.created_at == when
    assert [t.role for t in done.session.turns] == [Role.AGENT, Role.USER]  # Rita is the person here
    assert all(i.record.occurred_at == when for i in done.result.submission.items)
    with pytest.raises(InvalidInput, match="time zone"):
        memory.submit_session(wharf, text, title="chat", occurred_at=datetime(2026, 2, 9))
    with pytest.raises(InvalidInput, match="human: is empty"):
        memory.submit_session(wharf, text, title="chat", human="  ")
    assert len(memory.list_sessions(wharf)) == 1  # the refused ones stored nothing


FAKE_KEY = "sk-proj-" + secrets.token_hex(16)  # made here, never a real key


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        (
            "We decided the deploy key for the exporter is sk-proj-4fT9xQ2LmZ8vB1nR7yK3wP6hJ0cD5sA from now on.",
            "secret",
        ),
        ("We always send the release notes to ops.lead@wharf-logistics.io before tagging.", "personal_data"),
    ],
)
def test_a_sentence_that_carried_a_secret_or_an_address_is_rejected_not_kept(
    memory: Forethought, line: str, rule: str
) -> None:
    wharf = memory.scope("project", "wharf")
    done = memory.submit_session(wharf, f"User: {line}\nAssistant: Noted.\n", title="rules")
    assert [r.rule for r in done.result.submission.rejected] == [rule]
    assert done.result.submission.items == []  # nothing waits in the inbox to be bulk-approved
    assert memory.approve_all(wharf) == [] and memory.list_records(wharf) == []
    assert all(FAKE_KEY not in r.statement for r in memory.list_records(wharf, statuses=list(Status)))
