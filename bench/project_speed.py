"""The project app's speed targets: brief, check of a diff, import-git and an ADR folder.

    python -m bench.project_speed [--quick] [--out bench/results/project_speed.json]

Real MiniLM embedder (the default), heuristic mode (no LLM). Each group runs in its own process:
1. `build`: a fresh project of 2,000 generated rules (`retain_many`, six kinds over ten areas,
   `bench/project_corpus.py`) and 500 generated coding sessions of 8 turns, each through
   `submit_session` (captured *and* extracted: its candidates wait in the inbox);
2. `brief`: over that project, 200 calls over varied tasks with 0-2 file paths after one warm-up,
   with the default `max_excerpts` (3); then, in a process of its own (so no pass finds the
   other's task and passage vectors in the cache), the same calls with `max_excerpts=0`;
3. `check`: a generated ~1,000-line unified diff (`bench/project_diff.py`) checked 20 times with
   `diff=True` after one warm-up;
4. `git`: a generated repository of 2,000 commits (`bench.git_read.build`) through `import_git`
   into a fresh project, then the same repository again (everything known);
5. `adr`: the ADR folder (`--adr`, 45 real ADRs) through `import_path` into a fresh project.
Models are loaded before the clock starts in every group (their load time is reported apart). A
group whose target is missed is profiled once more (cProfile, one run; the top functions by
cumulative time go in the results). `--quick` shrinks the sizes (`QUICK`) for a smoke run (under 2 minutes),
written to the temporary folder, not to bench/results.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from bench.common import command_line, machine, markdown_table, now_iso, timing, write_json

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"brief_p95_ms": 50.0, "check_p95_ms": 300.0, "git_s": 60.0, "adr_s": 10.0}
FULL = {"rules": 2000, "sessions": 500, "briefs": 200, "checks": 20, "commits": 2000, "diff_lines": 1000}
QUICK = {"rules": 200, "sessions": 20, "briefs": 10, "checks": 3, "commits": 150, "diff_lines": 1000}
SUBJECT = "bench"


def _open(db: Path) -> Any:
    from forethought import Forethought

    return Forethought.open(db, embedder="minilm")


def _warm(memory: Any) -> float:
    """Load the embedder and the sentence judge (both lazily loaded) before anything is timed."""
    from forethought.judge import shared_judge

    start = time.perf_counter()
    memory.embedder.embed_one("load the model first")
    shared_judge().embedder.embed(["and the judge's"])
    memory.extract("project", "User: We always use Postgres for the ledger.\nAssistant: Noted.")
    return round(time.perf_counter() - start, 2)


def _profile(call: Callable[[], object], top: int = 30) -> list[dict[str, Any]]:
    """One run of `call` under cProfile: the `top` functions by cumulative time."""
    profiler = cProfile.Profile()
    profiler.runcall(call)
    stats = pstats.Stats(profiler)
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][3])  # type: ignore[attr-defined]
    out = []
    for (file, line, name), (_, calls, tottime, cumtime, _) in rows[:top]:
        where = f"{Path(file).as_posix().split('/src/')[-1]}:{line}" if line else file
        out.append({"function": f"{where}({name})", "calls": calls, "cum_ms": round(cumtime * 1000, 1),
                    "own_ms": round(tottime * 1000, 1)})  # fmt: skip
    return out


def _sizes(args: argparse.Namespace) -> dict[str, int]:
    return QUICK if args.quick else FULL


def group_build(db: Path, sizes: dict[str, int]) -> dict[str, Any]:
    from bench.project_corpus import rules, sessions
    from forethought import RetainItem
    from forethought.apps.project.slots import attributes

    out: dict[str, Any] = {"load": os.getloadavg()[0]}
    with _open(db) as memory:
        out["model_warmup_s"] = _warm(memory)
        scope = memory.scope("project", SUBJECT)
        generated = rules(sizes["rules"])
        items = [RetainItem(r.text, kind=r.kind, tags=[f"area:{r.area}"],
                            attributes={**attributes(r.kind, r.text), "area": r.area}) for r in generated]  # fmt: skip
        start = time.perf_counter()
        memory.retain_many(scope, items)
        out["retain_s"] = round(time.perf_counter() - start, 2)
        out["rules"] = len(memory.list_records(scope, limit=sizes["rules"] + 1))
        start = time.perf_counter()
        candidates = 0
        chats = sessions(sizes["sessions"])
        for title, text in chats:
            candidates += len(memory.submit_session(scope, text, title=title).result.submission.items)
        out["sessions_s"] = round(time.perf_counter() - start, 2)
        out["sessions"] = len(chats)
        out["session_candidates"] = candidates
        out["turns_per_session"] = 8
    out["db_mb"] = round(sum(p.stat().st_size for p in db.parent.glob(db.name + "*") if p.is_file()) / 1e6, 1)
    return out


def _briefs(memory: Any, scope: Any, tasks: list[tuple[str, list[str]]], excerpts: int) -> dict[str, Any]:
    memory.brief(scope, "warm-up: add a retry to the payment webhook handler", max_excerpts=excerpts)
    samples: list[float] = []
    stages: dict[str, list[float]] = {}
    used = with_excerpts = 0
    for task, paths in tasks:
        start = time.perf_counter()
        brief = memory.brief(scope, task, file_paths=paths, max_excerpts=excerpts)
        samples.append((time.perf_counter() - start) * 1000)
        used += len(brief.used)
        with_excerpts += bool(brief.excerpts)
        for name, ms in brief.timings_ms.items():
            stages.setdefault(name, []).append(ms)
    t = timing(samples)
    return {"calls": t.count, "p50_ms": t.p50_ms, "p95_ms": t.p95_ms, "max_ms": t.max_ms, "mean_ms": t.mean_ms,
            "mean_items": round(used / len(tasks), 2), "briefs_with_excerpts": with_excerpts,
            "stage_p50_ms": {k: timing(v).p50_ms for k, v in stages.items()},
            "stage_p95_ms": {k: timing(v).p95_ms for k, v in stages.items()}}  # fmt: skip


def group_brief(db: Path, sizes: dict[str, int], name: str) -> dict[str, Any]:
    """One pass of briefs (`default` or `no_excerpts`) in a process of its own, so that neither
    pass finds the other's tasks or passages in the vector cache."""
    from bench.project_corpus import tasks

    out: dict[str, Any] = {"load": os.getloadavg()[0]}
    excerpts = 3 if name == "default" else 0
    with _open(db) as memory:
        out["model_warmup_s"] = _warm(memory)
        scope = memory.scope("project", SUBJECT)
        chosen = tasks(sizes["briefs"])
        out[name] = _briefs(memory, scope, chosen, excerpts=excerpts)
        if out[name]["p95_ms"] > TARGETS["brief_p95_ms"]:
            slow = max(chosen, key=lambda tp: len(tp[0]))  # one task, the same for every profile
            out[name]["profile_task"] = slow[0]
            out[name]["profile"] = _profile(
                partial(memory.brief, scope, slow[0], file_paths=slow[1], max_excerpts=excerpts)
            )
    return out


def group_check(db: Path, sizes: dict[str, int]) -> dict[str, Any]:
    from bench.project_diff import diff

    out: dict[str, Any] = {"load": os.getloadavg()[0]}
    text, files = diff(sizes["diff_lines"])
    lines = text.splitlines()
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    out.update(diff_lines=len(lines), diff_files=files, added_lines=added)
    with _open(db) as memory:
        out["model_warmup_s"] = _warm(memory)
        scope = memory.scope("project", SUBJECT)
        report = memory.check(scope, text, diff=True)  # warm-up
        samples: list[float] = []
        for _ in range(sizes["checks"]):
            start = time.perf_counter()
            report = memory.check(scope, text, diff=True)
            samples.append((time.perf_counter() - start) * 1000)
        t = timing(samples)
        out.update(runs=t.count, p50_ms=t.p50_ms, p95_ms=t.p95_ms, max_ms=t.max_ms, violations=len(report.violations),
                   records_checked=report.records_checked, stage_ms=report.timings_ms)  # fmt: skip
        if t.p95_ms > TARGETS["check_p95_ms"]:
            out["profile"] = _profile(lambda: memory.check(scope, text, diff=True))
    return out


def _filed(result: Any) -> dict[str, int]:
    documents = result.documents
    return {
        "filed": documents.count("filed"),
        "history_documents": documents.count("history"),
        "known": documents.count("known"),
        "candidates": len(documents.records("pending")),
        "history_records": sum(len(d.history) for d in documents.documents),
        "reader_skipped": len(result.skipped),
    }


def group_git(tmp: Path, sizes: dict[str, int]) -> dict[str, Any]:
    from bench.git_read import build
    from forethought.projects.imports import import_git

    out: dict[str, Any] = {"load": os.getloadavg()[0]}
    repo = tmp / "repo"
    start = time.perf_counter()
    build(repo, sizes["commits"])
    out["build_repository_s"] = round(time.perf_counter() - start, 2)
    with _open(tmp / "git.db") as memory:
        out["model_warmup_s"] = _warm(memory)
        scope = memory.scope("project", "git")
        start = time.perf_counter()
        first = import_git(memory, scope, repo, environ=os.environ)
        seconds = time.perf_counter() - start
        commits = len(first.documents.documents) + len(first.skipped) if first.documents else 0
        out["first"] = {"seconds": round(seconds, 2), "commits": commits,
                        "commits_per_s": round(commits / seconds, 1), **_filed(first)}  # fmt: skip
        start = time.perf_counter()
        again = import_git(memory, scope, repo, environ=os.environ)
        out["second"] = {"seconds": round(time.perf_counter() - start, 2), **_filed(again)}
        if seconds > TARGETS["git_s"]:
            other = memory.scope("project", "git-profile")
            out["profile"] = _profile(lambda: import_git(memory, other, repo, environ=os.environ))
    return out


def group_adr(tmp: Path, folder: Path) -> dict[str, Any]:
    from forethought.projects.imports import import_path

    out: dict[str, Any] = {"load": os.getloadavg()[0], "folder": str(folder)}
    with _open(tmp / "adr.db") as memory:
        out["model_warmup_s"] = _warm(memory)
        scope = memory.scope("project", "adr")
        start = time.perf_counter()
        result = import_path(memory, scope, folder)
        assert result.documents is not None
        seconds = time.perf_counter() - start
        files = len(list(folder.glob("*.md")))
        out.update(seconds=round(seconds, 2), markdown_files=files, documents=len(result.documents.documents),
                   **_filed(result))  # fmt: skip
        if seconds > TARGETS["adr_s"]:
            out["profile"] = _profile(lambda: import_path(memory, memory.scope("project", "adr-2"), folder))
    return out


def _run(group: str, args: argparse.Namespace, place: Path) -> dict[str, Any]:
    print(f"{group} ...", file=sys.stderr, flush=True)
    command = [sys.executable, "-m", "bench.project_speed", "--group", group, "--place", str(place), "--adr", args.adr]
    start = time.perf_counter()
    proc = subprocess.run(command + (["--quick"] if args.quick else []), cwd=ROOT, capture_output=True, text=True,
                          check=False)  # fmt: skip
    if proc.returncode != 0:
        sys.exit(f"group {group} failed:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["process_s"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result)[:600], file=sys.stderr)
    return result


def _met(value: float, target: float) -> str:
    return "met" if value <= target else "**not met**"


def table(r: dict[str, Any]) -> str:
    b, c, g, a = r["brief"], r["check"], r["git"], r["adr"]
    d, n = b["default"], b["no_excerpts"]
    rows = [
        ["brief, default (≤ 3 excerpts)", f"{d['p50_ms']} / {d['p95_ms']} / {d['max_ms']} ms", "p95 ≤ 50 ms",
         _met(d["p95_ms"], TARGETS["brief_p95_ms"])],
        ["brief, `max_excerpts=0`", f"{n['p50_ms']} / {n['p95_ms']} / {n['max_ms']} ms", "p95 ≤ 50 ms",
         _met(n["p95_ms"], TARGETS["brief_p95_ms"])],
        [f"check, {c['diff_lines']}-line diff ({c['diff_files']} files)", f"{c['p50_ms']} / {c['p95_ms']} ms",
         "p95 ≤ 300 ms", _met(c["p95_ms"], TARGETS["check_p95_ms"])],
        [f"import-git, {g['first']['commits']} commits", f"{g['first']['seconds']} s ({g['first']['commits_per_s']}/s)",
         "≤ 60 s", _met(g["first"]["seconds"], TARGETS["git_s"])],
        ["import-git again (all known)", f"{g['second']['seconds']} s", "—", "—"],
        [f"ADR folder ({a['documents']} ADRs)", f"{a['seconds']} s", "≤ 10 s", _met(a["seconds"], TARGETS["adr_s"])],
    ]  # fmt: skip
    return markdown_table(["measurement", "p50 / p95 / max, or total", "target", ""], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--adr", default="/work/shared/data/adr")
    parser.add_argument(
        "--out", type=Path, help="default bench/results/project_speed.json (--quick: in the temp folder)"
    )
    parser.add_argument(
        "--group", choices=("build", "brief", "brief-bare", "check", "git", "adr"), help=argparse.SUPPRESS
    )
    parser.add_argument("--place", type=Path, help=argparse.SUPPRESS)  # internal: the folder a group works in
    args = parser.parse_args()
    sizes = _sizes(args)
    if args.group:
        db = args.place / "project.db"
        groups: dict[str, Callable[[], dict[str, Any]]] = {
            "build": lambda: group_build(db, sizes),
            "brief": lambda: group_brief(db, sizes, "default"),
            "brief-bare": lambda: group_brief(db, sizes, "no_excerpts"),
            "check": lambda: group_check(db, sizes),
            "git": lambda: group_git(args.place, sizes),
            "adr": lambda: group_adr(args.place, Path(args.adr)),
        }
        run = groups[args.group]
        print(json.dumps(run()))
        return
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ft-project-speed-") as tmp:
        place = Path(tmp)
        results = {g: _run(g, args, place) for g in ("build", "brief", "check")}
        bare = _run("brief-bare", args, place)
        results["brief"].update(no_excerpts=bare["no_excerpts"], no_excerpts_load=bare["load"])
        for g in ("git", "adr"):
            own = place / g
            own.mkdir()
            results[g] = _run(g, args, own)
    report = {"date": now_iso(), "machine": machine(), "command": command_line(), "quick": args.quick,
              "sizes": sizes, "targets": TARGETS, "wall_s": round(time.perf_counter() - started, 1),
              **results}  # fmt: skip
    quick_out = Path(tempfile.gettempdir()) / "project_speed_quick.json"  # a smoke run's figures are not kept
    out = args.out or (quick_out if args.quick else ROOT / "bench" / "results" / "project_speed.json")
    write_json(out, report)
    print(table(report))
    print(f"\n{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}; {report['wall_s']} s in all")


if __name__ == "__main__":
    main()
