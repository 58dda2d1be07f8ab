#!/usr/bin/env python3
"""Claude Code `Stop` hook: send what the session said to Forethought's review inbox.

Claude Code runs this command each time the agent finishes responding, with the hook input as
JSON on standard input, e.g.

    {"session_id": "...", "transcript_path": "/.../<session>.jsonl", "cwd": "/path/to/repo",
     "permission_mode": "default", "hook_event_name": "Stop", "stop_hook_active": false}

The transcript is Claude Code's JSON Lines log. Because `Stop` fires after every response, this
script remembers (per session) how many lines it has already sent and submits only the new user
and assistant text turns — tool calls, tool results and thinking are left out — through
`forethought submit --app project --space PROJECT --format json --file TURNS`. Candidates land in
the inbox for a person to approve (`forethought inbox list --app project --space PROJECT`).

It never blocks Claude from stopping: it prints at most a `systemMessage` for the user, and on any
failure it says why on standard error and exits 0. When `stop_hook_active` is true (Claude is
already continuing because of a Stop hook) it does nothing.

Configuration (an argument wins over the environment):
    --space NAME   / FORETHOUGHT_SPACE       the project (default: the project directory's name)
    --app APP      / FORETHOUGHT_APP         the app (default: project)
    FORETHOUGHT_BIN                          the forethought command (default: `forethought` on PATH)
    FORETHOUGHT_HOOK_STATE                   where the per-session offsets live
                                             (default: ~/.cache/forethought/claude-code)
    FORETHOUGHT_DB, FORETHOUGHT_WORKSPACE, ...   read by forethought itself
Standard library only; Python 3.9+.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

MAX_TURN_CHARS = 20_000  # forethought refuses a turn over 50,000 characters
MAX_BYTES = 1_800_000  # forethought refuses a transcript over 2 MiB: keep the newest turns that fit
TIMEOUT_S = 120


def project_name(space: str | None, hook: dict) -> str:
    if space:
        return space
    root = os.environ.get("CLAUDE_PROJECT_DIR") or hook.get("cwd") or os.getcwd()
    return Path(root).resolve().name or "default"


def text_of(content: object) -> str:
    """The text parts of a message's content (a string, or a list of typed blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        return "\n".join(p for p in parts if p)
    return ""


def turns_from(lines: list[str]) -> tuple[list[dict], int]:
    """User/assistant text turns from complete JSON lines, and how many lines were consumed (a
    half-written last line is left for next time)."""
    turns: list[dict] = []
    used = 0
    for number, line in enumerate(lines, start=1):
        try:
            entry = json.loads(line) if line.strip() else {}
        except json.JSONDecodeError:
            if number == len(lines):
                break  # still being written
            entry = {}  # a damaged line in the middle: skip it
        used += 1
        if not isinstance(entry, dict) or entry.get("isMeta") or entry.get("isSidechain"):
            continue
        message = entry.get("message")
        if not isinstance(message, dict):
            continue
        role = message.get("role") or entry.get("type")
        text = text_of(message.get("content")).strip()
        if role in ("user", "assistant") and text:
            turns.append({"role": role, "content": text[:MAX_TURN_CHARS]})
    return turns, used


def fit(turns: list[dict]) -> list[dict]:
    while turns and len(json.dumps(turns).encode("utf-8")) > MAX_BYTES:
        turns = turns[len(turns) // 4 or 1 :]
    return turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--space", default=os.environ.get("FORETHOUGHT_SPACE"))
    parser.add_argument("--app", default=os.environ.get("FORETHOUGHT_APP", "project"))
    args = parser.parse_args()
    try:
        hook = json.load(sys.stdin)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        print(f"forethought submit hook: the hook input is not JSON ({exc})", file=sys.stderr)
        return 0
    if not isinstance(hook, dict) or hook.get("stop_hook_active"):
        return 0
    transcript = hook.get("transcript_path")
    session = str(hook.get("session_id") or "unknown")
    if not isinstance(transcript, str) or not Path(transcript).is_file():
        print("forethought submit hook: no transcript_path in the hook input", file=sys.stderr)
        return 0
    space = project_name(args.space, hook)
    state_dir = Path(os.environ.get("FORETHOUGHT_HOOK_STATE") or Path.home() / ".cache/forethought/claude-code")
    key = hashlib.sha256(f"{args.app}\0{space}\0{session}".encode()).hexdigest()[:24]
    state = state_dir / f"{key}.offset"
    try:
        offset = int(state.read_text().strip()) if state.is_file() else 0
        lines = Path(transcript).read_text("utf-8").splitlines()[offset:]
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        print(f"forethought submit hook: cannot read the transcript or state ({exc})", file=sys.stderr)
        return 0
    turns, used = turns_from(lines)
    turns = fit(turns)
    summary = None
    if turns:
        summary = submit(turns, args.app, space, session)
        if summary is None:
            return 0  # not recorded as sent: the next Stop tries these lines again
    state_dir.mkdir(parents=True, exist_ok=True)
    state.write_text(str(offset + used))
    if summary:
        print(json.dumps({"systemMessage": summary}))
    return 0


def submit(turns: list[dict], app: str, space: str, session: str) -> str | None:
    """Submit the turns; the user-facing summary ('' when nothing waits for review), None on failure."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as handle:
        json.dump(turns, handle, ensure_ascii=False)
    command = [
        os.environ.get("FORETHOUGHT_BIN", "forethought"),
        "submit",
        "--app",
        app,
        "--space",
        space,
        "--format",
        "json",
        "--title",
        f"Claude Code session {session[:8]}",
        "--file",
        handle.name,
        "--json",
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"forethought submit hook: could not run forethought ({exc})", file=sys.stderr)
        return None
    finally:
        os.unlink(handle.name)
    if done.returncode != 0:
        print(f"forethought submit hook: {done.stderr.strip() or f'exit {done.returncode}'}", file=sys.stderr)
        return None
    try:
        items = json.loads(done.stdout).get("items", [])
    except (json.JSONDecodeError, AttributeError):
        return ""
    pending = sum(1 for item in items if item.get("outcome") == "pending")
    if not pending:
        return ""
    return f"forethought: {pending} candidate(s) wait for review: forethought inbox list --app {app} --space {space}"


if __name__ == "__main__":
    sys.exit(main())
