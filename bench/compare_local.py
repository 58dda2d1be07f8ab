"""Compare mode with a real local model: five coding tasks, with and without the memory block.

    # a model served on loopback, e.g. /work/shared/tools/local_llm (see its README):
    #   ./setup.sh && .venv-llm/bin/python server.py --port 8088 &
    .venv/bin/python -m bench.compare_local --base-url http://127.0.0.1:8088/v1 [--model local]
        [--repeat 3] [--embedder hashing] [--out bench/results/compare_local.json]

A fresh project (in a temporary folder) is seeded with ten Python rules, each stored as an active
record carrying a deterministic check pattern, so the blind check can catch a broken rule without
the model's judge. Each task then runs `forethought.projects.compare.compare` (the brief once, then
`--repeat` rounds of both arms at temperature 0, every answer checked blind). Prints, per task and
overall, the mean violations per round of each arm and the fairness line; writes every round
(answers included) to `--out`. By hand, never in a test: it needs the model server running.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench.common import command_line, machine, now_iso, write_json
from forethought import Forethought, Scope
from forethought.domain import CheckPatterns
from forethought.llm.base import ProviderError
from forethought.llm.openai_compat import OpenAICompatibleModel
from forethought.projects.compare import ARMS, compare

ROOT = Path(__file__).resolve().parent

# (kind, statement, area, forbidden pattern): rules a small model is likely to break unprompted.
RULES: list[tuple[str, str, str, str]] = [
    ("convention", "Log through the logging module; never call print() in application code.", "observability",
     r"\bprint\("),
    ("constraint", "Money amounts are integer cents; never convert them with float().", "payments", r"\bfloat\("),
    ("convention", "Make HTTP calls with httpx; never import the requests library.", "api",
     r"^\s*(import requests\b|from requests\b)"),
    ("constraint", "Timestamps are timezone-aware: use datetime.now(UTC), never datetime.utcnow().", "general",
     r"\butcnow\("),
    ("convention", "Build file paths with pathlib.Path; never use os.path.", "general", r"\bos\.path\."),
    ("constraint", "SQL is always parameterised; never build a query with an f-string passed to execute().", "db",
     r"execute\(\s*f[\"']"),
    ("convention", "Never write a bare except:; catch the exceptions you expect.", "general", r"except\s*:"),
    ("constraint", "Read YAML only with yaml.safe_load; never call yaml.load().", "general", r"\byaml\.load\("),
    ("constraint", "Never run a subprocess with shell=True.", "infra", r"shell\s*=\s*True"),
    ("constraint", "Tokens and secrets come from the secrets module; never from the random module.", "auth",
     r"\brandom\.(random|randint|choice|choices|getrandbits)\("),
]  # fmt: skip

# (task, file paths): each one tempts at least two of the rules above.
TASKS: list[tuple[str, list[str]]] = [
    ("Write a function that fetches an order from https://api.example.com/orders/{id} and logs its total in "
     "dollars.", ["shop/orders.py"]),
    ("Write a function that stores a payment (order id, amount in dollars, time it was taken) in the payments "
     "table of an sqlite3 database.", ["shop/payments.py"]),
    ("Write a function that loads config.yaml from the folder next to this module and returns its database URL.",
     ["shop/config.py"]),
    ("Write a function that runs `git log --oneline` in a given repository folder and returns the commit subjects, "
     "reporting any failure.", ["tools/gitlog.py"]),
    ("Write a function that creates a password-reset token for a user and the time it expires, one hour from now.",
     ["shop/auth/reset.py"]),
]  # fmt: skip


def seed(memory: Forethought) -> Scope:
    scope = memory.scope("project", "bench-shop")
    for kind, statement, area, pattern in RULES:
        memory.retain(scope, statement, kind=kind, tags=[f"area:{area}"], source="bench",
                      check=CheckPatterns(forbid=(pattern,)))  # fmt: skip
    return scope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", default="local")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--embedder", default="hashing", choices=["hashing", "minilm"])
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds one model call may take")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "compare_local.json")
    args = parser.parse_args()

    llm = OpenAICompatibleModel.local(args.base_url, model=args.model, timeout_s=args.timeout, max_retries=0)
    results: list[dict[str, Any]] = []
    failed: list[dict[str, str]] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        Forethought.open(Path(folder) / "bench.db", embedder=args.embedder, model=llm) as memory,
    ):
        scope = seed(memory)
        for n, (task, paths) in enumerate(TASKS, 1):
            try:
                result = compare(memory, scope, task, repeat=args.repeat, file_paths=paths)
            except ProviderError as exc:  # every round failed: say so and go on with the next task
                print(f"task {n}/{len(TASKS)}: {exc.summary}\n", flush=True)
                failed.append({"task": task, "error": exc.summary})
                continue
            print(f"task {n}/{len(TASKS)}\n{result.text()}\n", flush=True)
            results.append(result.as_json())
    llm.close()

    overall = {arm: _overall(results, arm) for arm in ARMS}
    for arm, figures in overall.items():
        print(f"overall {arm}: {figures['mean']:.2f} violations a round over {figures['rounds']} rounds")
    write_json(args.out, {
        "measured_at": now_iso(), "command": command_line(), "machine": machine(), "base_url": args.base_url,
        "embedder": args.embedder, "repeat": args.repeat, "rules": len(RULES), "overall": overall, "tasks": results,
        "failed_tasks": failed,
    })  # fmt: skip
    print(f"wrote {args.out}")


def _overall(results: list[dict[str, Any]], arm: str) -> dict[str, Any]:
    """Violations per completed round of `arm`, pooled over every task."""
    counts = [r[arm]["violations"] for task in results for r in task["rounds"] if r["failed"] is None]
    return {"rounds": len(counts), "mean": round(statistics.fmean(counts), 3) if counts else None,
            "stdev": round(statistics.pstdev(counts), 3) if counts else None}  # fmt: skip


if __name__ == "__main__":
    main()
