"""The Claude Code hook's cost per prompt: the whole UserPromptSubmit hook process, timed end to end.

    .venv/bin/python -m bench.hook_latency [--rules 200] [--runs 30] [--embedder hashing]
        [--out bench/results/hook_latency.json]

A `forethought serve` on loopback over a project of `--rules` active rules (a dozen areas, three
kinds); the hook is run exactly as the plugin's hooks.json runs it (`sh -c 'python3 -I -S
"${CLAUDE_PLUGIN_ROOT}/hooks/forethought_hook.py"'`, `python3` being this interpreter), once per
task, `--runs` different new tasks, each in its own session (so every run asks for a brief). The
figure is the wall time of the hook process: interpreter start, payload, state file, the brief
request and the server's answer, the output. Its parts are timed in between, alike: a bare
`python3 -I -S -c pass`, the hook on a follow-up (no request), and the same brief over an
in-process HTTP client.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from tests.reliability.server import ServerProcess

from bench.common import command_line, machine, now_iso, timing, write_json
from forethought import Forethought

ROOT = Path(__file__).parent
PLUGIN = ROOT.parent / "integrations" / "claude-code"
PROJECT = "shop"
WORKSPACE = "bench"

AREAS = ["auth", "payments", "checkout", "search", "email", "api", "db", "cache", "deploy", "ui", "jobs", "logging"]
RULES = [
    ("constraint", "In {area}, never {verb} {thing} without {guard}."),
    ("decision", "We decided that {area} keeps {thing} in {store}, because {reason}."),
    ("convention", "Every {area} module names its {thing} helpers after the {store} they touch."),
]
VERBS = ["log", "cache", "retry", "expose", "serialize", "delete", "rename", "batch"]
THINGS = ["tokens", "refunds", "webhooks", "invoices", "sessions", "uploads", "reports", "carts", "coupons", "orders"]
GUARDS = ["an audit entry", "a feature flag", "a migration", "the owner's review", "a rate limit", "a request id"]
STORES = ["Postgres", "Redis", "S3", "the outbox table", "the event log", "DynamoDB"]
REASONS = ["it survives restarts", "support needs the history", "the vendor requires it", "it halves latency"]
TASKS = [
    "Add retry with backoff to the {area} {thing} client and log each attempt",
    "Refactor how {area} stores {thing} so the handler gets smaller",
    "Write tests for the {area} {thing} expiry path and fix what fails",
]


def rules(count: int) -> list[tuple[str, str]]:
    out = []
    for i in range(count):
        kind, template = RULES[i % len(RULES)]
        text = template.format(
            area=AREAS[i % len(AREAS)],
            verb=VERBS[i % len(VERBS)],
            thing=THINGS[(i // len(AREAS)) % len(THINGS)],
            guard=GUARDS[i % len(GUARDS)],
            store=STORES[(i // 3) % len(STORES)],
            reason=REASONS[i % len(REASONS)],
        )
        out.append((kind, f"{text} (rule {i})"))
    return out


def tasks(count: int) -> list[str]:
    return [
        TASKS[i % len(TASKS)].format(area=AREAS[(i * 5) % len(AREAS)], thing=THINGS[(i * 7) % len(THINGS)])
        for i in range(count)
    ]


def seed(db: Path, count: int, embedder: str) -> str:
    with Forethought.open(db, embedder=embedder) as memory:
        shop = memory.scope("project", PROJECT, workspace=WORKSPACE)
        for kind, statement in rules(count):
            memory.retain(shop, statement, kind=kind)
        _, key = memory.create_api_key(WORKSPACE, name="bench-hook", role="member")
    return key


def hook_command() -> str:
    hooks = json.loads((PLUGIN / "hooks" / "hooks.json").read_text("utf-8"))["hooks"]
    return str(hooks["UserPromptSubmit"][0]["hooks"][0]["command"])


def time_run(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, bytes, bytes]:
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, capture_output=True, timeout=30, check=True)
    return (time.perf_counter() - started) * 1000, done.stdout, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--embedder", choices=["hashing", "minilm"], default="hashing")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "hook_latency.json")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="hook-latency-") as folder:
        work = Path(folder)
        db = work / "memory.db"
        key = seed(db, args.rules, args.embedder)
        (work / "bin").mkdir()
        (work / "bin" / "python3").symlink_to(sys.executable)
        env = {
            "PATH": f"{work / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
            "HOME": os.environ.get("HOME", "/tmp"),
            "CLAUDE_PLUGIN_ROOT": str(PLUGIN),
            "FORETHOUGHT_PROJECT": PROJECT,
            "FORETHOUGHT_HOOK_STATE": str(work),
            "FORETHOUGHT_API_KEY": key,
        }
        hook = ["/bin/sh", "-c", hook_command()]
        floor: list[float] = []
        follow_ups: list[float] = []
        server_ms: list[float] = []
        samples: list[float] = []
        briefed = 0
        with ServerProcess(db, FORETHOUGHT_EMBEDDER=args.embedder) as server, httpx.Client(timeout=30) as client:
            env["FORETHOUGHT_URL"] = server.url
            time_run(hook, _payload("warm-up", "open the shop"), env)
            for i, task in enumerate(tasks(args.runs)):  # interleaved, so a busy machine weighs on each alike
                ms, out, err = time_run(hook, _payload(f"s{i}", task), env)
                if err:
                    raise SystemExit(f"the hook failed: {err.decode()}")
                samples.append(ms)
                briefed += bool(out.strip())
                follow_ups.append(time_run(hook, _payload(f"s{i}", "yes do it"), env)[0])
                floor.append(time_run(["/bin/sh", "-c", "python3 -I -S -c pass"], b"", env)[0])
                server_ms.append(_brief_ms(client, server.url, key, task))
    summary = timing(samples)
    result = {
        "p50_ms": summary.p50_ms,
        "p95_ms": summary.p95_ms,
        "max_ms": summary.max_ms,
        "runs": len(samples),
        "briefed_runs": briefed,
        "rules": args.rules,
        "embedder": args.embedder,
        "parts_p50_ms": {
            "python_start": timing(floor).p50_ms,  # sh and a bare interpreter, same flags
            "hook_without_request": timing(follow_ups).p50_ms,  # a follow-up: start, payload, state file
            "server_brief_request": timing(server_ms).p50_ms,  # the same brief over a kept-alive client
        },
        "hook": hook_command(),
        "date": now_iso(),
        "machine": machine(),
        "command": command_line(),
    }
    write_json(args.out, result)
    print(json.dumps({k: result[k] for k in ("p50_ms", "p95_ms", "max_ms", "runs", "briefed_runs", "parts_p50_ms")}))


def _brief_ms(client: httpx.Client, url: str, key: str, task: str) -> float:
    started = time.perf_counter()
    response = client.post(
        f"{url}/v1/apps/project/subjects/{PROJECT}/brief",
        json={"task": task, "max_excerpts": 2},
        headers={"Authorization": f"Bearer {key}"},
    )
    response.raise_for_status()
    return (time.perf_counter() - started) * 1000


def _payload(session: str, prompt: str) -> bytes:
    return json.dumps(
        {
            "session_id": f"bench-{session}",
            "transcript_path": "/tmp/none.jsonl",
            "cwd": f"/home/dev/{PROJECT}",
            "hook_event_name": "UserPromptSubmit",
            "prompt": prompt,
        }
    ).encode()


if __name__ == "__main__":
    main()
