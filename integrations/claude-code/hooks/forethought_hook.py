#!/usr/bin/env python3
"""Forethought's Claude Code hook: brief the agent from project memory, file its sessions.

One command for every event (`python3 -I -S forethought_hook.py`, the event read from the payload's
`hook_event_name`), standard library only, because it runs on every prompt and must start fast:

- SessionStart: one line of context saying project memory is on (no request); forgets the last
  briefed task, since a cleared or compacted context no longer holds that brief.
- UserPromptSubmit: a brief for the prompt when it is a new task, added as additional context;
  a short follow-up ("yes", "go on", at most 3 words, or mostly the last task's words) gets none.
- Stop / SessionEnd: the transcript lines written since the last filing, slimmed to what Forethought
  reads (messages, tool output heads) and cut to the server's body limit, filed as a session.

Talks to `FORETHOUGHT_URL` with `FORETHOUGHT_API_KEY`, else runs the local `forethought` CLI.
Every failure is one line on stderr and exit 0: the user's prompt always goes on unchanged. The
key is never printed, the transcript never either.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

# Start-up is this hook's cost: typing, http.client, urllib.parse, subprocess, tempfile load only where needed.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_PAYLOAD_BYTES = 1 << 20  # a hook payload is a few hundred bytes; anything past 1 MiB is refused
MAX_TRANSCRIPT_BYTES = 2 << 20  # at most the last 2 MiB of a transcript's new lines are read per filing
MAX_BODY_BYTES = 1_000_000  # the server refuses bodies over 1 MiB by default: the session JSON stays under
MAX_RESPONSE_BYTES = 4 << 20
MAX_TASK_CHARS = 2_000  # the server's task limit
MAX_FILE_PATHS = 20
MAX_WORDS_KEPT = 200
MAX_PART_CHARS = 10_000  # a message part's text; the server refuses a turn over 50,000 characters
MAX_PARTS = 4
MAX_TOOL_CHARS = 4_000  # the server keeps only the head of tool output
MAX_CONTEXT_CHARS = 9_000  # Claude Code shows longer additional context only as a preview
BRIEF_TIMEOUT_S = 2.0
SUBMIT_TIMEOUT_S = 10.0
CLI_BRIEF_TIMEOUT_S = 8.0  # the CLI starts Python and opens the store first: about 1.7 s with the hashing embedder
FOLLOW_UP_MAX_WORDS = 3
FOLLOW_UP_OVERLAP = 0.6
MIN_WORD_CHARS = 3  # shorter words ("to", "it") say nothing about which task it is
MAX_EXCERPTS = 2
PROJECT_APP = "project"
REFUSED_BODY = (413, 422)

_WORD = re.compile(r"[^\W_]+")
_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]{2,}\.[A-Za-z][A-Za-z0-9]{0,7}|(?:[\w.-]+/)+[\w.-]+)(?![\w/])")
_COMMAND_ECHO = re.compile(r"\s*<(?:command-name|command-message|local-command-stdout|local-command-stderr)>")


class Config:
    """Where memory is (`url`, else the `cli` command), the key, the project, the state folder."""

    __slots__ = ("api_key", "brief_timeout", "cli", "project", "state_dir", "url")

    def __init__(self, *, url: str | None, api_key: str | None, project: str, cli: str, state_dir: Path,
                 brief_timeout: float = BRIEF_TIMEOUT_S) -> None:  # fmt: skip
        self.url, self.api_key, self.project, self.cli, self.state_dir = url, api_key, project, cli, state_dir
        self.brief_timeout = brief_timeout


class HookError(Exception):
    """A failure worth one line on stderr; the hook still exits 0."""


class Delivered(HookError):
    """The server got the request (it refused its body, or is still working on it): not sent again."""


def main() -> int:
    config: Config | None = None
    try:
        payload = read_payload(sys.stdin.buffer)
        config = load_config(os.environ, payload)
        if config is None:
            return 0
        output = handle(str(payload.get("hook_event_name", "")), payload, config)
        if output is not None:
            sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    except HookError as exc:
        warn(str(exc), config)
    except Exception as exc:  # never block the user's prompt, whatever went wrong
        warn(f"internal error: {type(exc).__name__}: {exc}", config)
    return 0


def read_payload(stream: Any) -> dict[str, Any]:
    data = stream.read(MAX_PAYLOAD_BYTES + 1)
    if len(data) > MAX_PAYLOAD_BYTES:
        raise HookError(f"hook payload over {MAX_PAYLOAD_BYTES:,} bytes, ignored")
    try:
        payload = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise HookError(f"hook payload is not JSON ({exc}), ignored") from None
    if not isinstance(payload, dict):
        raise HookError("hook payload is not a JSON object, ignored")
    return payload


def load_config(environ: Any, payload: dict[str, Any]) -> Config | None:
    """None when no project can be named (no FORETHOUGHT_PROJECT and no working directory)."""
    setting = {name: str(environ.get(f"FORETHOUGHT_{name}", "")).strip() for name in ("PROJECT", "URL", "API_KEY")}
    project = setting["PROJECT"] or Path(str(payload.get("cwd") or "")).name
    if not project:
        return None
    state = str(environ.get("FORETHOUGHT_HOOK_STATE", "")).strip()
    if not state:
        import tempfile

        state = tempfile.gettempdir()
    cli = str(environ.get("FORETHOUGHT_CLI", "")).strip() or "forethought"
    url, key = setting["URL"].rstrip("/") or None, setting["API_KEY"] or None
    try:  # FORETHOUGHT_HOOK_BRIEF_TIMEOUT: seconds a brief over HTTP may take (0.1-30; default 2)
        wait = min(30.0, max(0.1, float(environ.get("FORETHOUGHT_HOOK_BRIEF_TIMEOUT") or BRIEF_TIMEOUT_S)))
    except ValueError:
        wait = BRIEF_TIMEOUT_S
    return Config(url=url, api_key=key, project=project, cli=cli, state_dir=Path(state), brief_timeout=wait)


def handle(event: str, payload: dict[str, Any], config: Config) -> dict[str, Any] | None:
    session = str(payload.get("session_id") or "")
    if event == "SessionStart":
        if session:
            update_state(config, session, task=[])
        return context_output(event, f"Forethought project memory is on for '{config.project}': new tasks get a brief.")
    if event == "UserPromptSubmit":
        return on_prompt(str(payload.get("prompt") or ""), session, config)
    if event in ("Stop", "SessionEnd"):
        file_transcript(payload, session, config, final=event == "SessionEnd")
    return None


def on_prompt(prompt: str, session: str, config: Config) -> dict[str, Any] | None:
    words = _WORD.findall(prompt.lower())
    hashes = word_hashes(words)
    if not hashes or prompt.lstrip().startswith("/"):
        return None  # nothing a brief could match, or a slash command
    last = set(load_state(config, session).get("task") or []) if session else set()
    if is_follow_up(words, last):
        return None
    brief = request_brief(config, prompt[:MAX_TASK_CHARS], file_paths(prompt))
    if session:
        update_state(config, session, task=sorted(hashes)[:MAX_WORDS_KEPT])
    block = str(brief.get("block") or "").strip()
    if not block:
        return None
    lead = f"Project memory from Forethought (project '{config.project}') for this task:\n"
    return context_output("UserPromptSubmit", lead + bounded(block, MAX_CONTEXT_CHARS - len(lead)))


def is_follow_up(words: list[str], last: set[str]) -> bool:
    """A short reply or a rewording of the task briefed last; never so when nothing was briefed."""
    if not last:
        return False
    if len(words) <= FOLLOW_UP_MAX_WORDS:
        return True
    mine = word_hashes(words)
    return not mine or len(mine & last) / len(mine) >= FOLLOW_UP_OVERLAP


def word_hashes(words: list[str]) -> set[str]:
    # The state file holds hashes, not the words of the user's prompt.
    return {hashlib.sha256(w.encode()).hexdigest()[:12] for w in words if len(w) >= MIN_WORD_CHARS}


def file_paths(prompt: str) -> list[str]:
    found = dict.fromkeys(m.group(1).rstrip(".") for m in _PATH.finditer(prompt))
    return [p for p in found if "://" not in p][:MAX_FILE_PATHS]


def request_brief(config: Config, task: str, paths: list[str]) -> dict[str, Any]:
    if config.url is not None:
        body = {"task": task, "file_paths": paths, "max_excerpts": MAX_EXCERPTS}
        return post_json(config, "brief", json.dumps(body).encode(), config.brief_timeout)
    args = ["brief", "--app", PROJECT_APP, "--space", config.project, "--json", "--excerpts", str(MAX_EXCERPTS)]
    for path in paths:
        args += ["--path", path]
    return run_cli(config, [*args, "--", task], b"", CLI_BRIEF_TIMEOUT_S)


def context_output(event: str, text: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def bounded(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit)
    return text[: cut if cut > 0 else limit] + "\n(brief cut here: ask forethought_brief for the rest)"


def file_transcript(payload: dict[str, Any], session: str, config: Config, *, final: bool) -> None:
    path = Path(str(payload.get("transcript_path") or ""))
    if not session or not path.name or not path.is_file():
        return
    start = int(load_state(config, session).get("offset") or 0)
    raw, offset = new_lines(path, start, final=final)
    if offset == start:
        return  # nothing written since the last filing
    lines = fit_body(slim_lines(raw))
    try:
        if lines:
            submit(config, "\n".join(lines) + "\n", f"claude-code {session[:8]}")
    except Delivered:  # at most once: a lost part of a session beats a duplicated one
        update_state(config, session, offset=offset)
        raise
    update_state(config, session, offset=offset)


def new_lines(path: Path, start: int, *, final: bool) -> tuple[bytes, int]:
    """The whole lines after `start` (at most the last MAX_TRANSCRIPT_BYTES), and where they end.
    A transcript shorter than `start` was rewritten: it is read again from its beginning. Before
    the session ends, a last line without its newline may still be being written: it waits."""
    size = path.stat().st_size
    start = 0 if size < start else start
    begin = max(start, size - MAX_TRANSCRIPT_BYTES)
    with path.open("rb") as handle:
        handle.seek(begin)
        raw = handle.read(size - begin)
    head = raw.find(b"\n") + 1 if begin > start else 0  # cut in a line: start at the next one
    end = len(raw) if final else raw.rfind(b"\n") + 1
    if end <= head:
        return b"", start if end == 0 else begin + end
    return raw[head:end], begin + end


def slim_lines(raw: bytes) -> list[str]:
    """Claude Code's log lines as Forethought reads them: user and assistant messages with their
    text and the head of tool output; tool calls, thinking, snapshots, meta lines, slash-command
    echoes and subagents' exchanges left out."""
    lines = []
    for line in raw.decode("utf-8", errors="replace").splitlines():
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue
        if (slim := slim_item(item)) is not None:
            lines.append(json.dumps(slim))
    return lines


def slim_item(item: Any) -> dict[str, Any] | None:
    message = item.get("message") if isinstance(item, dict) else None
    if not isinstance(message, dict) or item.get("type") not in ("user", "assistant") or item.get("isMeta"):
        return None
    if item.get("isSidechain"):
        return None  # a subagent's exchange is not what the person said
    content = message.get("content")
    if isinstance(content, str):
        said = content.strip() and not _COMMAND_ECHO.match(content)  # a slash command and its output
        parts: list[Any] = [{"type": "text", "text": content[:MAX_PART_CHARS]}] if said else []
    else:
        parts = [p for p in map(slim_part, content if isinstance(content, list) else []) if p][:MAX_PARTS]
    if not parts:
        return None
    role = str(message.get("role") or item["type"])
    return {"type": item["type"], "timestamp": item.get("timestamp"), "message": {"role": role, "content": parts}}


def slim_part(part: Any) -> dict[str, Any] | None:
    if not isinstance(part, dict):
        return None
    if part.get("type") == "text" and str(part.get("text") or "").strip():
        return {"type": "text", "text": str(part["text"])[:MAX_PART_CHARS]}
    if part.get("type") == "tool_result":
        inner = part.get("content")
        if isinstance(inner, list):
            inner = "\n".join(str(p.get("text", "")) for p in inner if isinstance(p, dict))
        text = str(inner or "")[:MAX_TOOL_CHARS]
        return {"type": "tool_result", "content": text} if text.strip() else None
    return None


def fit_body(lines: list[str]) -> list[str]:
    """The last lines whose JSON-escaped text fits the server's body limit (the newest are kept:
    what came before was filed by an earlier Stop, or is the oldest part of a long session)."""
    room = MAX_BODY_BYTES - 1_000  # the title, format and braces
    kept: list[str] = []
    for line in reversed(lines):
        room -= len(json.dumps(line))  # its quotes pay for the escaped newline
        if room < 0:
            break
        kept.append(line)
    return kept[::-1]


def submit(config: Config, text: str, title: str) -> None:
    if config.url is not None:
        body = {"text": text, "format": "jsonl", "title": title}
        post_json(config, "sessions", json.dumps(body).encode(), SUBMIT_TIMEOUT_S)
        return
    args = ["submit", "--app", PROJECT_APP, "--space", config.project, "--file", "-", "--format", "jsonl"]
    run_cli(config, [*args, "--title", title, "--json"], text.encode(), SUBMIT_TIMEOUT_S)


def post_json(config: Config, route: str, body: bytes, timeout: float) -> dict[str, Any]:
    import http.client
    import urllib.parse

    assert config.url is not None
    parts = urllib.parse.urlsplit(config.url)
    subject = urllib.parse.quote(config.project, safe="")
    target = f"{parts.path}/v1/apps/{PROJECT_APP}/subjects/{subject}/{route}"
    headers = {"Content-Type": "application/json", "Accept": "application/json", "Connection": "close"}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.netloc, timeout=timeout)
    try:
        try:
            connection.request("POST", target, body=body, headers=headers)
        except OSError as exc:  # while connecting or sending: the server has nothing
            raise HookError(f"{route}: Forethought server at {config.url} not reachable ({exc})") from None
        try:
            response = connection.getresponse()
            data = response.read(MAX_RESPONSE_BYTES)
        except OSError as exc:  # sent, but no answer in time: the server may still be working on it
            raise Delivered(f"{route}: no answer within {timeout:g} s ({exc})") from None
    finally:
        connection.close()
    if response.status >= 400:  # a refused body stays refused; a key, a rate or a 5xx may change
        message = f"{route}: HTTP {response.status} from the server: {error_message(data)}"
        raise (Delivered if response.status in REFUSED_BODY else HookError)(message)
    return parse_reply(data)


def error_message(data: bytes) -> str:
    try:
        return str(json.loads(data)["error"]["message"])
    except Exception:
        return "no message"


def run_cli(config: Config, args: list[str], stdin: bytes, timeout: float) -> dict[str, Any]:
    import subprocess

    try:
        done = subprocess.run([config.cli, *args], input=stdin, capture_output=True, timeout=timeout, check=False)
    except FileNotFoundError:
        raise HookError(f"no FORETHOUGHT_URL, and the '{config.cli}' command is not installed") from None
    except subprocess.TimeoutExpired:
        raise HookError(f"'{config.cli} {args[0]}' took over {timeout:g} s, skipped") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", errors="replace").strip().splitlines() or ["no message"]
        raise HookError(f"'{config.cli} {args[0]}' failed ({done.returncode}): {lines[-1]}")
    return parse_reply(done.stdout)


def parse_reply(data: bytes) -> dict[str, Any]:
    try:
        reply = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        reply = None
    if not isinstance(reply, dict):
        raise HookError("the reply is not a JSON object")
    return reply


def state_path(config: Config, session: str) -> Path:
    name = hashlib.sha256(f"{config.project}\0{session}".encode()).hexdigest()[:24]
    return config.state_dir / f"forethought-hook-{name}.json"


def load_state(config: Config, session: str) -> dict[str, Any]:
    try:
        fd = os.open(state_path(config, session), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            state = json.loads(handle.read(64_000))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def update_state(config: Config, session: str, **changes: Any) -> None:
    """Read again just before writing: a prompt may have been briefed while a Stop was filing."""
    save_state(config, session, {**load_state(config, session), **changes})


def save_state(config: Config, session: str, state: dict[str, Any]) -> None:
    """Written whole to a new private file (0600), then moved over the old one."""
    config.state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = state_path(config, session)
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(state, handle)
    os.replace(temp, path)


def warn(message: str, config: Config | None) -> None:
    if config is not None and config.api_key:
        message = message.replace(config.api_key, "***")
    print(f"forethought hook: {' '.join(message.split())}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
