"""Past-session excerpts in the CLI: `brief` prints them, `inbox from-excerpt` files one."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import Cli
from tests.pipeline.test_excerpts import CHAT, TASK


def test_cli_brief_prints_excerpts_and_files_one(cli: Cli, tmp_path: Path) -> None:
    chat = tmp_path / "chat.txt"
    chat.write_text(CHAT)
    assert cli("submit", "--app", "project", "--space", "ferry", "--file", str(chat), "--title", "t").code == 0
    brief = cli("brief", "--json", "--app", "project", "--space", "ferry", TASK)
    assert brief.code == 0, brief.err
    excerpt = brief.json()["excerpts"][0]
    shown = cli("brief", "--app", "project", "--space", "ferry", TASK)
    assert "unreviewed excerpt" in shown.out and "inbox from-excerpt" in shown.out
    filed = cli("inbox", "from-excerpt", "--json", "--app", "project", "--space", "ferry", excerpt["session_id"],
                str(excerpt["turn_index"]), excerpt["quote"], "--kind", "constraint")  # fmt: skip
    assert filed.code == 0, filed.err
    assert filed.json()["items"][0]["outcome"] == "pending"
    refused = cli("inbox", "from-excerpt", "--app", "project", "--space", "ferry", excerpt["session_id"],
                  str(excerpt["turn_index"]), "not in the turn", "--kind", "constraint")  # fmt: skip
    assert refused.code == 2 and "verbatim" in refused.err and "Traceback" not in refused.err
