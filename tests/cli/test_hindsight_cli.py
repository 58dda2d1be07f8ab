"""The CLI with the Hindsight engine configured (a real server on loopback): writes queue their
changes, `index sync` sends them, recall answers from Hindsight, `index reconcile` finds nothing
left to fix, and `doctor` names the engine."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

from tests.cli.conftest import Cli
from tests.hindsight_server import HindsightServer


def test_the_cli_recalls_through_hindsight(hindsight_server: HindsightServer, tmp_path: Path) -> None:
    cli = Cli(tmp_path / "cli.db")
    bank = f"cli-{uuid.uuid4().hex[:12]}"
    cli.env = {
        **os.environ,
        **cli.env,
        "FORETHOUGHT_RECALL_ENGINE": "hindsight",
        "FORETHOUGHT_HINDSIGHT_URL": hindsight_server.base_url,
        "FORETHOUGHT_HINDSIGHT_BANK": bank,
    }
    assert cli("retain", "--space", "p", "--kind", "decision", "Use Postgres for the ledger.").code == 0
    assert cli("retain", "--space", "q", "--kind", "decision", "Use Postgres for the payroll ledger.").code == 0
    synced = cli("index", "sync", "--json")
    assert synced.code == 0, synced.err
    assert synced.json() == {"done": 2, "failed": 0, "pending": 0}
    hits = cli("recall", "--space", "p", "--json", "ledger Postgres").json()
    assert [h["statement"] for h in hits] == ["Use Postgres for the ledger."]
    assert "hindsight" in hits[0]["why"]
    reconciled = cli("index", "reconcile", "--json").json()
    assert reconciled == {"checked": 2, "added": 0, "retagged": 0, "deleted": 0}
    doctor = cli("doctor")
    assert f"engine    hindsight at {hindsight_server.base_url}, bank {bank}" in doctor.out


def test_index_sync_with_the_builtin_engine_has_nothing_to_do(cli: Cli) -> None:
    assert cli("retain", "--space", "p", "--kind", "note", "We deploy on Tuesdays.").code == 0
    result = cli("index", "sync")
    assert result.code == 0 and result.out.strip() == "builtin: 0 synced, 0 failed, 0 pending"
