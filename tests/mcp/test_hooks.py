"""The Claude Code hook scripts in examples/claude-code/, run as Claude Code runs them: a command
with the hook input as JSON on standard input, against a temporary database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from forethought import Forethought
from tests.mcp.conftest import FORETHOUGHT, seed, server_env

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "claude-code"
BRIEF = EXAMPLES / "forethought_brief.py"
SUBMIT = EXAMPLES / "forethought_submit.py"


def _hook(script: Path, payload: Any, db: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = server_env(
        db,
        FORETHOUGHT_BIN=FORETHOUGHT,
        FORETHOUGHT_WORKSPACE="alpha",
        FORETHOUGHT_HOOK_STATE=str(tmp_path / "state"),
    )
    stdin = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [sys.executable, str(script), *args], input=stdin, env=env, cwd=tmp_path, capture_output=True, text=True
    )


def _prompt(prompt: str, tmp_path: Path) -> dict[str, Any]:
    return {
        "session_id": "3f9c2a7e-0000-4000-8000-000000000001",
        "transcript_path": str(tmp_path / "session.jsonl"),
        "cwd": str(tmp_path / "apexcart"),
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }


def test_the_brief_hook_adds_the_memory_that_applies_as_context(tmp_path: Path) -> None:
    seeded = seed(tmp_path / "memory.db")
    done = _hook(BRIEF, _prompt("--format the order date with moment", tmp_path), seeded.db, tmp_path)
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "UserPromptSubmit"
    context = output["additionalContext"]
    assert "<memory" in context and seeded.moment_handle in context and "heuristic mode" in context
    # the project defaults to the name of the project directory ("cwd" in the hook input)
    unrelated = _hook(BRIEF, _prompt("rename the README title", tmp_path), seeded.db, tmp_path)
    assert unrelated.returncode == 0 and unrelated.stdout == ""
    other = _hook(BRIEF, _prompt("format the date with moment", tmp_path), seeded.db, tmp_path, "--space", "nope")
    assert other.returncode == 0 and other.stdout == ""


def test_the_brief_hook_never_blocks_a_prompt(tmp_path: Path) -> None:
    missing = _hook(BRIEF, _prompt("format the date with moment", tmp_path), tmp_path / "none.db", tmp_path)
    assert missing.returncode == 0 and missing.stdout == "" and "no database" in missing.stderr
    garbage = _hook(BRIEF, "not json", tmp_path / "none.db", tmp_path)
    assert garbage.returncode == 0 and garbage.stdout == "" and "not JSON" in garbage.stderr


def _line(kind: str, content: Any, **extra: Any) -> str:
    entry = {"type": kind, "sessionId": "s1", "message": {"role": kind, "content": content}, **extra}
    return json.dumps(entry)


def test_the_stop_hook_submits_new_turns_once(tmp_path: Path) -> None:
    seeded = seed(tmp_path / "memory.db")
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(
        "\n".join(
            [
                json.dumps({"type": "summary", "summary": "Date picker", "leafUuid": "x"}),
                _line("user", "We decided to use Stripe webhooks for payment confirmation; never poll the Stripe API."),
                _line(
                    "assistant",
                    [
                        {"type": "thinking", "thinking": "We decided to use jQuery everywhere."},
                        {"type": "text", "text": "Understood, webhooks it is."},
                        {"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file_path": "a.ts"}},
                    ],
                ),
                _line("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "We decided to use Perl."}]),
                _line("user", "<command-name>/clear</command-name>", isMeta=True),
            ]
        )
        + "\n"
    )
    payload = {
        "session_id": "3f9c2a7e-0000-4000-8000-000000000002",
        "transcript_path": str(transcript),
        "cwd": str(tmp_path),
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }

    def pending() -> list[str]:
        with Forethought.open(seeded.db, embedder="hashing") as memory:
            key = memory.scope("project", "apexcart", workspace="alpha")
            return sorted(r.statement for r in memory.inbox(key).pending)

    first = _hook(SUBMIT, payload, seeded.db, tmp_path, "--space", "apexcart")
    assert first.returncode == 0, first.stderr
    assert "1 candidate(s) wait for review" in json.loads(first.stdout)["systemMessage"]
    stripe = "We decided to use Stripe webhooks for payment confirmation; never poll the Stripe API."
    assert pending() == [stripe]  # not the thinking, the tool result or the meta line

    again = _hook(SUBMIT, payload, seeded.db, tmp_path, "--space", "apexcart")
    assert again.returncode == 0 and again.stdout == "" and pending() == [stripe]  # nothing sent twice

    with transcript.open("a") as handle:
        handle.write(_line("user", "We decided to keep the order history in Postgres.") + "\n")
    later = _hook(SUBMIT, payload, seeded.db, tmp_path, "--space", "apexcart")
    assert later.returncode == 0, later.stderr
    assert pending() == sorted([stripe, "We decided to keep the order history in Postgres."])

    looping = _hook(SUBMIT, {**payload, "stop_hook_active": True}, seeded.db, tmp_path, "--space", "apexcart")
    assert looping.returncode == 0 and looping.stdout == ""


def test_the_stop_hook_never_blocks_stopping(tmp_path: Path) -> None:
    missing = _hook(
        SUBMIT, {"session_id": "s", "transcript_path": str(tmp_path / "gone.jsonl")}, tmp_path / "m.db", tmp_path
    )
    assert missing.returncode == 0 and missing.stdout == "" and "transcript_path" in missing.stderr
    garbage = _hook(SUBMIT, "[", tmp_path / "m.db", tmp_path)
    assert garbage.returncode == 0 and garbage.stdout == ""
