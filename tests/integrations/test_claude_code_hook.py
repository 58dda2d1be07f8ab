"""The Claude Code plugin's hook, run exactly as hooks.json runs it (`sh -c` with
CLAUDE_PLUGIN_ROOT set, `python3` on PATH) on recorded hook payloads, against a real
`forethought serve` on loopback; requests are counted from the server's access log."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from forethought import Forethought
from tests.reliability.server import ServerProcess, free_port

PLUGIN = Path(__file__).parents[2] / "integrations" / "claude-code"
PAYLOADS = Path(__file__).parent / "payloads"
WORKSPACE = "acme"
PROJECT = "shop"
DISCOUNT_RULE = "Checkout discount codes are validated on the server, never trusted from the client."
RULES = (
    DISCOUNT_RULE,
    "Money amounts are stored as integer cents, never as floating point numbers.",
    "Format dates with date-fns; never add moment.js to the frontend.",
)
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")
HOOK_TIMEOUT_S = 20


@dataclass(frozen=True)
class Live:
    server: ServerProcess
    key: str
    db: Path

    def requests(self, route: str) -> int:
        """POSTs to the subject's `route` seen by the server so far (its access log)."""
        target = f"/v1/apps/project/subjects/{PROJECT}/{route} "
        return sum(1 for line in self.server.output().splitlines() if f'"POST {target}' in line)

    def sessions(self) -> list[dict[str, Any]]:
        url = f"{self.server.url}/v1/apps/project/subjects/{PROJECT}/sessions"
        response = httpx.get(url, headers={"Authorization": f"Bearer {self.key}"}, timeout=10)
        assert response.status_code == 200
        return list(response.json()["items"])


def seed(db: Path) -> str:
    with Forethought.open(db, embedder="hashing") as memory:
        shop = memory.scope("project", PROJECT, workspace=WORKSPACE)
        for rule in RULES:
            memory.retain(shop, rule, kind="constraint")
        _, key = memory.create_api_key(WORKSPACE, name="claude-code", role="member")
    return key


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    db = tmp_path_factory.mktemp("hook-server") / "memory.db"
    key = seed(db)
    with ServerProcess(db, args=("--log-level", "info")) as server:
        yield Live(server, key, db)


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """A PATH entry whose `python3` is this interpreter (the hook needs nothing but the standard library)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "python3").symlink_to(sys.executable)
    return folder


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_bytes((PAYLOADS / "transcript.jsonl").read_bytes())
    return path


def command(event: str) -> str:
    entries = json.loads((PLUGIN / "hooks" / "hooks.json").read_text("utf-8"))["hooks"][event]
    return str(entries[0]["hooks"][0]["command"])


def payload(name: str, transcript: Path | None = None) -> bytes:
    data = json.loads((PAYLOADS / f"{name}.json").read_text("utf-8"))
    if transcript is not None:
        data["transcript_path"] = str(transcript)
    return json.dumps(data).encode()


def hook_env(bin_dir: Path, state: Path, **extra: str) -> dict[str, str]:
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "CLAUDE_PLUGIN_ROOT": str(PLUGIN),
        "FORETHOUGHT_PROJECT": PROJECT,
        "FORETHOUGHT_HOOK_STATE": str(state),
    }
    env.update(extra)
    return env


@dataclass(frozen=True)
class Ran:
    stdout: str
    stderr: str
    seconds: float


def run(event: str, stdin: bytes, env: dict[str, str], *, secret: str | None = None) -> Ran:
    started = time.perf_counter()
    done = subprocess.run(
        ["/bin/sh", "-c", command(event)], input=stdin, env=env, capture_output=True, timeout=HOOK_TIMEOUT_S
    )
    ran = Ran(done.stdout.decode(), done.stderr.decode(), time.perf_counter() - started)
    assert done.returncode == 0, ran
    if secret is not None:
        assert secret not in ran.stdout and secret not in ran.stderr
    return ran


def server_env(live: Live, bin_dir: Path, state: Path) -> dict[str, str]:
    # A loaded CI machine may take longer than a prompt's 2 s to brief: these tests are about what is briefed.
    return hook_env(bin_dir, state, FORETHOUGHT_URL=live.server.url, FORETHOUGHT_API_KEY=live.key,
                    FORETHOUGHT_HOOK_BRIEF_TIMEOUT="20")  # fmt: skip


def context_of(ran: Ran, event: str) -> str:
    output = json.loads(ran.stdout)
    assert output["hookSpecificOutput"]["hookEventName"] == event
    return str(output["hookSpecificOutput"]["additionalContext"])


def test_hooks_json_runs_the_one_script_from_the_plugin_root_for_every_event() -> None:
    for event in EVENTS:
        assert command(event) == 'python3 -I -S "${CLAUDE_PLUGIN_ROOT}/hooks/forethought_hook.py"'
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text("utf-8"))
    assert manifest["name"] == "forethought" and manifest["version"] and manifest["description"]
    mcp = json.loads((PLUGIN / ".mcp.json").read_text("utf-8"))["mcpServers"]["forethought"]
    assert mcp["command"] == "forethought" and mcp["args"][:3] == ["mcp", "--transport", "stdio"]
    assert "${FORETHOUGHT_PROJECT}" in mcp["args"]
    market = json.loads((PLUGIN.parent / ".claude-plugin" / "marketplace.json").read_text("utf-8"))
    assert [(PLUGIN.parent / p["source"]).resolve() for p in market["plugins"]] == [PLUGIN.resolve()]
    skill = (PLUGIN / "skills" / "forethought" / "SKILL.md").read_text("utf-8")
    assert skill.startswith("---\nname: forethought\ndescription: ")


def test_session_start_says_memory_is_on_without_a_request(live: Live, bin_dir: Path, tmp_path: Path) -> None:
    before = live.requests("brief")
    ran = run("SessionStart", payload("session_start"), server_env(live, bin_dir, tmp_path), secret=live.key)
    assert f"project memory is on for '{PROJECT}'" in context_of(ran, "SessionStart")
    assert "\n" not in context_of(ran, "SessionStart")
    assert live.requests("brief") == before


def test_a_new_task_is_briefed_a_follow_up_is_not_and_an_unrelated_task_adds_nothing(
    live: Live, bin_dir: Path, tmp_path: Path
) -> None:
    env = server_env(live, bin_dir, tmp_path)
    before = live.requests("brief")

    first = run("UserPromptSubmit", payload("prompt_new_task"), env, secret=live.key)
    context = context_of(first, "UserPromptSubmit")
    assert DISCOUNT_RULE in context and "moment.js" not in context
    assert first.stderr == ""
    assert live.requests("brief") == before + 1

    follow_up = run("UserPromptSubmit", payload("prompt_follow_up"), env, secret=live.key)
    assert (follow_up.stdout, follow_up.stderr) == ("", "")
    assert live.requests("brief") == before + 1  # no request at all

    other = run("UserPromptSubmit", payload("prompt_other_task"), env, secret=live.key)
    assert (other.stdout, other.stderr) == ("", "")  # briefed, nothing applies: no padding
    assert live.requests("brief") == before + 2

    state_files = list(tmp_path.glob("forethought-hook-*.json"))
    assert len(state_files) == 1 and state_files[0].stat().st_mode & 0o777 == 0o600
    assert "discount" not in state_files[0].read_text()  # word hashes, not the prompt


def test_a_cleared_context_is_briefed_again(live: Live, bin_dir: Path, tmp_path: Path) -> None:
    env = server_env(live, bin_dir, tmp_path)
    assert run("UserPromptSubmit", payload("prompt_new_task"), env).stdout
    run("SessionStart", payload("session_start"), env)
    again = run("UserPromptSubmit", payload("prompt_new_task"), env)
    assert DISCOUNT_RULE in context_of(again, "UserPromptSubmit")


def test_stop_files_the_transcript_once_per_change_and_session_end_files_the_rest(
    live: Live, bin_dir: Path, tmp_path: Path, transcript: Path
) -> None:
    env = server_env(live, bin_dir, tmp_path)
    before = {s["id"] for s in live.sessions()}
    stop = run("Stop", payload("stop", transcript), env, secret=live.key)
    assert (stop.stdout, stop.stderr) == ("", "")
    new = [s for s in live.sessions() if s["id"] not in before]
    # 5 messages and 1 tool output; meta, summary, snapshot, slash-command echoes and the subagent are not
    assert [(s["title"], s["turn_count"]) for s in new] == [("claude-code 7c2e9f14", 6)]

    posted = live.requests("sessions")
    assert run("Stop", payload("stop", transcript), env).stdout == ""
    assert live.requests("sessions") == posted  # nothing new: no request

    line = {"type": "user", "timestamp": "2026-11-30T09:20:00Z", "message": {"role": "user", "content": "Thanks!"}}
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line))  # no newline yet: Claude Code may still be writing it
    run("Stop", payload("stop", transcript), env)
    assert live.requests("sessions") == posted
    end = run("SessionEnd", payload("session_end", transcript), env, secret=live.key)
    assert (end.stdout, end.stderr) == ("", "")
    assert live.requests("sessions") == posted + 1
    assert [s["turn_count"] for s in live.sessions() if s["id"] not in before] == [1, 6]


def test_a_long_transcript_is_slimmed_and_filed_from_its_last_whole_lines(
    live: Live, bin_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "long.jsonl"
    code = "".join(f"{j:>4}  const total = cart.items.reduce((sum, item) => sum + item.cents, 0);\n" for j in range(60))
    with path.open("w", encoding="utf-8") as handle:
        for i in range(600):  # 600 lines of 4.6 KB of tool output (2.8 MB): over the 2 MiB read and the body limit
            part = {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": f"turn {i}:\n{code}"}
            said = {"role": "user", "content": [part]}
            handle.write(json.dumps({"type": "user", "timestamp": "2026-11-30T10:00:00Z", "message": said}) + "\n")
    before = {s["id"] for s in live.sessions()}
    ran = run("SessionEnd", payload("session_end", path), server_env(live, bin_dir, tmp_path))
    assert (ran.stdout, ran.stderr) == ("", "")
    (new,) = [s for s in live.sessions() if s["id"] not in before]
    assert 200 < new["turn_count"] < 260  # about 1 MB of the newest lines, each cut to the 4,000 characters kept
    url = f"{live.server.url}/v1/apps/project/subjects/{PROJECT}/sessions/{new['id']}"
    turns = httpx.get(url, headers={"Authorization": f"Bearer {live.key}"}, timeout=10).json()["turns"]
    assert turns[-1]["text"].startswith("turn 599:") and all(len(t["text"]) <= 4_000 for t in turns)


def test_a_server_that_is_down_or_silent_costs_at_most_the_timeout(bin_dir: Path, tmp_path: Path) -> None:
    down = hook_env(bin_dir, tmp_path, FORETHOUGHT_URL=f"http://127.0.0.1:{free_port()}", FORETHOUGHT_API_KEY="k")
    ran = run("UserPromptSubmit", payload("prompt_new_task"), down)
    assert ran.stdout == "" and len(ran.stderr.splitlines()) == 1 and "not reachable" in ran.stderr
    with socket.socket() as silent:  # accepts connections (the backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        ran = run("UserPromptSubmit", payload("prompt_new_task"), hook_env(bin_dir, tmp_path, FORETHOUGHT_URL=url))
    assert ran.stdout == "" and len(ran.stderr.splitlines()) == 1
    assert "within 2 s" in ran.stderr  # the brief's timeout cut it, then the prompt goes on


def test_a_refused_key_is_one_line_that_never_shows_the_key(live: Live, bin_dir: Path, tmp_path: Path) -> None:
    wrong = "ft_zzzzzzzz_" + "s3cr3t" * 6
    env = hook_env(bin_dir, tmp_path, FORETHOUGHT_URL=live.server.url, FORETHOUGHT_API_KEY=wrong)
    ran = run("UserPromptSubmit", payload("prompt_new_task"), env, secret=wrong)
    assert ran.stdout == "" and "HTTP 401" in ran.stderr and len(ran.stderr.splitlines()) == 1


def test_a_part_refused_for_its_key_is_filed_with_the_next_stop(
    live: Live, bin_dir: Path, tmp_path: Path, transcript: Path
) -> None:
    wrong = hook_env(bin_dir, tmp_path, FORETHOUGHT_URL=live.server.url, FORETHOUGHT_API_KEY="ft_zzzzzzzz_nope")
    before = {s["id"] for s in live.sessions()}
    refused = run("Stop", payload("stop", transcript), wrong)
    assert refused.stdout == "" and "HTTP 401" in refused.stderr
    run("Stop", payload("stop", transcript), server_env(live, bin_dir, tmp_path), secret=live.key)
    assert [s["turn_count"] for s in live.sessions() if s["id"] not in before] == [6]


@pytest.mark.parametrize("stdin", [b"{not json", b"[1, 2]", b"\xff\xfe", b"{" + b" " * (1 << 20) + b"}"])
def test_a_bad_payload_exits_0_with_a_line_on_stderr(bin_dir: Path, tmp_path: Path, stdin: bytes) -> None:
    ran = run("UserPromptSubmit", stdin, hook_env(bin_dir, tmp_path, FORETHOUGHT_URL="http://127.0.0.1:9"))
    assert ran.stdout == "" and len(ran.stderr.splitlines()) == 1 and "ignored" in ran.stderr


def test_without_a_url_the_local_cli_briefs_and_files(bin_dir: Path, tmp_path: Path, transcript: Path) -> None:
    db = tmp_path / "local.db"
    seed(db)
    cli_dir = str(Path(sys.executable).parent)  # the `forethought` console script
    env = hook_env(bin_dir, tmp_path, FORETHOUGHT_DB=str(db), FORETHOUGHT_EMBEDDER="hashing")
    env.update(
        PATH=f"{env['PATH']}{os.pathsep}{cli_dir}", FORETHOUGHT_LLM_PROVIDER="none", FORETHOUGHT_WORKSPACE=WORKSPACE
    )
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    first = run("UserPromptSubmit", payload("prompt_new_task"), env)
    assert DISCOUNT_RULE in context_of(first, "UserPromptSubmit"), first.stderr
    assert run("UserPromptSubmit", payload("prompt_follow_up"), env).stdout == ""
    stop = run("Stop", payload("stop", transcript), env)
    assert (stop.stdout, stop.stderr) == ("", "")
    with Forethought.open(db, embedder="hashing") as memory:
        sessions = memory.list_sessions(memory.scope("project", PROJECT, workspace=WORKSPACE), limit=10)
    assert [(s.title, len(s.turns)) for s in sessions] == [("claude-code 7c2e9f14", 6)]


def _hook_module() -> Any:
    spec = importlib.util.spec_from_file_location("forethought_hook", PLUGIN / "hooks" / "forethought_hook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = _hook_module()
TASK = "Add a discount code field to the checkout form and validate the code before payment"


@pytest.mark.parametrize(
    ("prompt", "follow_up"),
    [
        ("yes", True),
        ("go on", True),
        ("fix that too", True),
        ("validate the discount code field in the checkout form", True),  # all its words were in the task
        ("ok, so do it as it is", True),  # no word of 3 letters or more beyond the task's
        ("Write a README section about running the docker compose stack", False),
        ("add the discount code to the invoice email template as well", False),  # 4 of its 8 words are the task's
    ],
)
def test_what_counts_as_a_follow_up_of_the_task_briefed_last(prompt: str, follow_up: bool) -> None:
    last = HOOK.word_hashes(HOOK._WORD.findall(TASK.lower()))
    assert HOOK.is_follow_up(HOOK._WORD.findall(prompt.lower()), last) is follow_up
    assert HOOK.is_follow_up(HOOK._WORD.findall(prompt.lower()), set()) is False  # nothing briefed yet


def test_the_file_paths_a_prompt_names_go_with_the_brief() -> None:
    prompt = "Fix src/checkout/CheckoutForm.tsx and README.md (see https://example.com/a/b, e.g. v2.0 in 3.11)."
    assert HOOK.file_paths(prompt) == ["src/checkout/CheckoutForm.tsx", "README.md"]


def test_new_lines_wait_for_a_line_being_written_and_restart_on_a_rewritten_transcript(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n{"c"')
    assert HOOK.new_lines(path, 0, final=False) == (b'{"a": 1}\n{"b": 2}\n', 18)
    assert HOOK.new_lines(path, 18, final=False) == (b"", 18)
    assert HOOK.new_lines(path, 18, final=True) == (b'{"c"', 22)
    path.write_bytes(b'{"z": 0}\n')  # shorter than what was filed: a new file
    assert HOOK.new_lines(path, 22, final=False) == (b'{"z": 0}\n', 9)
