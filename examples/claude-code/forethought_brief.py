#!/usr/bin/env python3
"""Claude Code `UserPromptSubmit` hook: brief the agent with the project memory that applies.

Claude Code runs this command with the hook input as JSON on standard input, e.g.

    {"session_id": "...", "transcript_path": "/.../<session>.jsonl", "cwd": "/path/to/repo",
     "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": "add a date picker"}

It calls `forethought brief --app project --space PROJECT --json -- PROMPT` and, when some memory
applies, prints

    {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "<memory block>"}}

which Claude Code adds to the context of that prompt. When nothing applies it prints nothing. It
never blocks a prompt: on any failure (no database yet, forethought not installed, a timeout) it
says why on standard error and exits 0.

Configuration (an argument wins over the environment):
    --space NAME   / FORETHOUGHT_SPACE   the project (default: the project directory's name)
    --app APP      / FORETHOUGHT_APP     the app (default: project)
    FORETHOUGHT_BIN                      the forethought command (default: `forethought` on PATH)
    FORETHOUGHT_DB, FORETHOUGHT_WORKSPACE, FORETHOUGHT_EMBEDDER, ...   read by forethought itself
Standard library only; Python 3.9+.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

MAX_TASK = 2000  # forethought's query limit
TIMEOUT_S = 30


def project_name(space: str | None, hook: dict) -> str:
    if space:
        return space
    root = os.environ.get("CLAUDE_PROJECT_DIR") or hook.get("cwd") or os.getcwd()
    return Path(root).resolve().name or "default"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--space", default=os.environ.get("FORETHOUGHT_SPACE"))
    parser.add_argument("--app", default=os.environ.get("FORETHOUGHT_APP", "project"))
    args = parser.parse_args()
    try:
        hook = json.load(sys.stdin)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        print(f"forethought brief hook: the hook input is not JSON ({exc})", file=sys.stderr)
        return 0
    prompt = hook.get("prompt") if isinstance(hook, dict) else None
    if not isinstance(prompt, str) or not prompt.strip():
        return 0
    command = [
        os.environ.get("FORETHOUGHT_BIN", "forethought"),
        "brief",
        "--app",
        args.app,
        "--space",
        project_name(args.space, hook),
        "--json",
        "--",  # a prompt that starts with '-' is the task, not an option
        prompt.strip()[:MAX_TASK],
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"forethought brief hook: could not run forethought ({exc})", file=sys.stderr)
        return 0
    if done.returncode != 0:
        print(f"forethought brief hook: {done.stderr.strip() or f'exit {done.returncode}'}", file=sys.stderr)
        return 0
    try:
        brief = json.loads(done.stdout)
    except json.JSONDecodeError:
        print("forethought brief hook: forethought did not answer in JSON", file=sys.stderr)
        return 0
    block = brief.get("block") or ""
    if not block:
        return 0
    reasons = "; ".join(f"[{u['handle']}] {u['reason']}" for u in brief.get("used", []))
    mode = "heuristic mode, no LLM" if brief.get("mode") == "heuristic" else brief.get("mode")
    context = f"{block}\n(Forethought project memory; why these apply: {reasons}; {mode}.)"
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": context}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
