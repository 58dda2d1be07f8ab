"""`forethought project ...` end to end through the installed command: imports of every kind,
brief, check of content and of diffs, rulebook exports and snapshots, eval, isolation."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.cli.conftest import Cli

AGENTS = """\
# AGENTS.md

## Payments

- Always go through `charge()` in payments/gateway.py; never call Stripe directly.
- Webhook handlers must be idempotent: key them on the event id.

## Frontend

- Never use moment in the frontend; use date-fns instead.
"""

ADR_OLD = """\
# 1. Database connection pool

Date: 2023-03-01

## Status

Superseded by [ADR-0002](0002-pgbouncer.md)

## Context

Workers open too many connections.

## Decision

We will keep a pool of 10 connections per worker.
"""

ADR_NEW = """\
# 2. Pool connections with PgBouncer

Date: 2024-05-02

## Status

Accepted. Supersedes [ADR-0001](0001-pool.md)

## Context

The per-worker pool still exhausted the database.

## Decision

We will pool every connection through PgBouncer in transaction mode.
"""

DIFF = """\
--- a/src/ui/date.ts
+++ b/src/ui/date.ts
@@ -1,2 +1,3 @@
 import { format } from "date-fns";
+import moment from "moment";
 export const show = (d: Date) => format(d, "PP");
"""


def _git(repo: Path, *args: str, date: str = "2024-02-01T10:00:00+00:00") -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=Dana", "-c", "user.email=dana@example.com", *args],
                   check=True, capture_output=True, env=env)  # fmt: skip


def _project(cli: Cli, tmp_path: Path) -> Path:
    (tmp_path / "AGENTS.md").write_text(AGENTS)
    assert cli("project", "create", "--project", "shop").code == 0
    result = cli("project", "import", "--project", "shop", str(tmp_path / "AGENTS.md"), "--json")
    assert result.code == 0, result.err
    assert result.json()["counts"]["filed"] == 1 and len(result.json()["pending"]) == 3
    assert cli("inbox", "approve", "--all", "--app", "project", "--space", "shop").code == 0
    return tmp_path


def test_a_rule_file_imports_once_and_its_rules_brief_a_task(cli: Cli, tmp_path: Path) -> None:
    _project(cli, tmp_path)
    again = cli("project", "import", "--project", "shop", str(tmp_path / "AGENTS.md"), "--json").json()
    assert again["counts"] == {"filed": 0, "history": 0, "known": 1, "skipped": 0}
    brief = cli("project", "brief", "--project", "shop", "--path", "src/payments/webhooks.py",
                "add a retry to the payment webhook handler", "--json")  # fmt: skip
    used = " ".join(u["statement"] for u in brief.json()["used"])
    assert "idempotent" in used and "moment" not in used


def test_check_takes_a_diff_and_names_the_file_and_line(cli: Cli, tmp_path: Path) -> None:
    _project(cli, tmp_path)
    (tmp_path / "change.diff").write_text(DIFF)
    result = cli("project", "check", "--project", "shop", "--file", str(tmp_path / "change.diff"))
    assert result.code == 1, result.out + result.err
    assert "at src/ui/date.ts:2" in result.out and "moment" in result.out
    clean = DIFF.replace('+import moment from "moment";', '+import { parseISO } from "date-fns";')
    (tmp_path / "clean.diff").write_text(clean)
    assert cli("project", "check", "--project", "shop", "--file", str(tmp_path / "clean.diff")).code == 0


def test_an_adr_folder_arrives_with_its_supersession(cli: Cli, tmp_path: Path) -> None:
    adrs = tmp_path / "adr"
    adrs.mkdir()
    (adrs / "0001-pool.md").write_text(ADR_OLD)
    (adrs / "0002-pgbouncer.md").write_text(ADR_NEW)
    result = cli("project", "import", "--project", "shop", str(adrs), "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert data["counts"]["filed"] == 1 and data["counts"]["history"] == 1
    (history,) = data["history"]
    assert history["status"] == "superseded" and "10 connections" in history["statement"]
    assert [p["statement"] for p in data["pending"]] and "PgBouncer" in data["pending"][0]["statement"]
    assert data["pending"][0]["occurred_at"].startswith("2024-05-02")
    cli("inbox", "approve", "--all", "--app", "project", "--space", "shop")
    march = cli("project", "rulebook", "--project", "shop", "--as-of", "2023-06-01").out
    assert "10 connections" in march and "PgBouncer" not in march
    now = cli("project", "rulebook", "--project", "shop", "--format", "agents").out
    assert now.startswith("# AGENTS.md") and "PgBouncer" in now and "10 connections" not in now


def test_git_history_proposes_its_decisions(cli: Cli, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(
        repo,
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "fix(auth): never cache session tokens in Redis because they rotate",
    )
    _git(repo, "commit", "-q", "--allow-empty", "-m", "wip", date="2024-02-02T10:00:00+00:00")
    result = cli("project", "import-git", "--project", "shop", "--repo", str(repo), "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert any("cache session tokens" in p["statement"] for p in data["pending"])
    assert data["pending"][0]["occurred_at"].startswith("2024-02-01")
    assert "dana@example.com" not in result.out
    again = cli("project", "import-git", "--project", "shop", "--repo", str(repo), "--json").json()
    assert again["pending"] == []


def test_eval_scores_briefs_against_a_task_file(cli: Cli, tmp_path: Path) -> None:
    _project(cli, tmp_path)
    tasks = {
        "tasks": [
            {"id": "webhook", "task": "add a retry to the payment webhook handler", "paths": ["src/payments/hooks.py"],
             "must": [{"text": "Webhook handlers must be idempotent"}], "must_not": [{"text": "Never use moment"}]},
            {"id": "dates", "task": "show order dates in the account page", "paths": ["src/ui/orders.tsx"],
             "must": [{"text": "Never use moment in the frontend"}], "must_not": [{"text": "Webhook handlers"}]},
        ]
    }  # fmt: skip
    (tmp_path / "tasks.json").write_text(json.dumps(tasks))
    result = cli("project", "eval", "--project", "shop", "--tasks", str(tmp_path / "tasks.json"), "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert data["forbidden_task_rate"] == 0.0 and data["recall"] is not None and data["recall"] >= 0.5
    assert {t["id"] for t in data["tasks"]} == {"webhook", "dates"}
    (tmp_path / "bad.json").write_text('{"tasks": [{"id": "x"}]}')
    bad = cli("project", "eval", "--project", "shop", "--tasks", str(tmp_path / "bad.json"))
    assert bad.code != 0 and "tasks" in bad.err and "Traceback" not in bad.err


def test_another_projects_rules_never_reach_this_one(cli: Cli, tmp_path: Path) -> None:
    _project(cli, tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "CLAUDE.md").write_text("- Always use moment for every date in the frontend.\n")
    cli("project", "import", "--project", "legacy", str(other / "CLAUDE.md"))
    cli("inbox", "approve", "--all", "--app", "project", "--space", "legacy")
    brief = cli("project", "brief", "--project", "shop", "--path", "src/ui/d.tsx", "format dates in the UI", "--json")
    assert all("Always use moment" not in u["statement"] for u in brief.json()["used"])
    book = cli("project", "rulebook", "--project", "shop").out
    assert "Always use moment" not in book


def test_bad_input_gets_one_line_errors(cli: Cli, tmp_path: Path) -> None:
    missing = cli("project", "import", "--project", "shop", str(tmp_path / "nope.md"))
    assert missing.code != 0 and "no such file" in missing.err and "Traceback" not in missing.err
    big = tmp_path / "session.txt"
    big.write_text("user: " + "x " * 120_000)
    too_big = cli("project", "import", "--project", "shop", str(big))
    assert too_big.code != 0 and "200,000 characters" in too_big.err
    not_repo = cli("project", "import-git", "--project", "shop", "--repo", str(tmp_path))
    assert not_repo.code != 0 and "Traceback" not in not_repo.err


def test_stale_evidence_is_marked_in_the_brief_queued_and_confirmed(cli: Cli, tmp_path: Path) -> None:
    _project(cli, tmp_path)  # a rule citing payments/gateway.py and charge()
    repo = tmp_path / "repo"
    (repo / "src" / "payments").mkdir(parents=True)
    (repo / "src" / "payments" / "billing.py").write_text("def bill(): ...\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    brief = cli("project", "brief", "--project", "shop", "--path", "src/payments/billing.py", "--repo", str(repo),
                "change how we charge cards in the payments gateway", "--json")  # fmt: skip
    assert brief.code == 0, brief.err
    stale = brief.json()["stale"]
    assert any("payments/gateway.py" in what for gone in stale.values() for what in gone), brief.out
    queue = cli("project", "stale", "--project", "shop", "--json").json()  # no tree needed now: it was queued
    (entry,) = [q for q in queue if q["missing"] or any("marked stale" in r for r in q["reasons"])]
    handle = entry["record"]["handle"]
    assert cli("project", "confirm", "--project", "shop", handle, "--note", "moved, still true").code == 0
    assert all(q["record"]["handle"] != handle for q in cli("project", "stale", "--project", "shop", "--json").json())


def test_compare_without_a_model_says_it_needs_one(cli: Cli, tmp_path: Path) -> None:
    _project(cli, tmp_path)
    result = cli("project", "compare", "--project", "shop", "add a retry to the webhook handler")
    assert result.code != 0 and "compare needs a language model" in result.err and "Traceback" not in result.err


def test_organisation_rules_reach_every_project_until_one_overrides_them(cli: Cli, tmp_path: Path) -> None:
    _project(cli, tmp_path)
    (tmp_path / "org.md").write_text("# AGENTS.md\n\n- Never log e-mail addresses or card numbers in any service.\n")
    (tmp_path / "org").mkdir()
    (tmp_path / "org" / "AGENTS.md").write_text((tmp_path / "org.md").read_text())
    imported = cli("project", "org", "import", str(tmp_path / "org" / "AGENTS.md"), "--json")
    assert imported.code == 0, imported.err
    assert cli("inbox", "approve", "--all", "--app", "project", "--space", "_organisation").code == 0
    (org_rule,) = cli("project", "org", "rulebook", "--json").json()["rules"]
    draft = tmp_path / "log.py"
    draft.write_text('logger.info("paid", email=customer.email, card=card_number)\n')
    task = ["add logging of the customer's card number and e-mail to the payment handler"]
    brief = cli("project", "brief", "--project", "shop", "--path", "src/payments/log.py", *task, "--json").json()
    assert {u["origin"] for u in brief["used"]} >= {"organisation"}, brief
    assert "(ORG)" in brief["block"]
    why = "the fraud team needs raw e-mails in this one service"
    assert cli("project", "org", "override", "--project", "shop", org_rule["handle"], "--why", why).code == 0
    listed = cli("project", "org", "overrides", "--project", "shop", "--json").json()
    assert [o["record"]["id"] for o in listed] == [org_rule["id"]] and listed[0]["reason"] == why
    after = cli("project", "brief", "--project", "shop", "--path", "src/payments/log.py", *task, "--json").json()
    assert all(u["origin"] == "project" for u in after["used"])
    assert any("overridden in this project" in f["reason"] for f in after["filtered"])
    # another project still inherits it
    other = cli("project", "brief", "--project", "cart", "--path", "src/payments/log.py", *task, "--json").json()
    assert any(u["origin"] == "organisation" for u in other["used"])
    assert cli("project", "org", "restore", "--project", "shop", org_rule["handle"], "--why", "done").code == 0
    assert cli("project", "org", "overrides", "--project", "shop", "--json").json() == []
    reserved = cli("project", "brief", "--project", "_organisation", "x")
    assert reserved.code != 0 and "organisation rule set" in reserved.err
