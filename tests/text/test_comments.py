"""Comment spans of a draft: a name in a comment is a mention, not a use. Drafts written for these
tests (an invented harbour-crane telemetry service)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forethought import Forethought
from forethought.apps.project.patterns import derive_patterns
from forethought.domain import CheckPatterns
from forethought.text.comments import comment_line, comment_spans


def commented(text: str, needle: str) -> bool:
    return comment_spans(text).covers(text.index(needle))


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("# pandas blew up on big files\nimport polars\n", "pandas"),
        ("x = load()  # not pandas any more\n", "pandas"),
        ("call(); // the old ObjectMapper path\n", "ObjectMapper"),
        ("/**\n * Replaces the old ObjectMapper.\n */\nclass Mapper {}\n", "ObjectMapper"),
        ("/* ObjectMapper */ int x = 1;\n", "ObjectMapper"),
        ('def load():\n    """Once used pandas.read_csv;\n    now polars."""\n    return 1\n', "pandas"),
        ("-- never select * here\nselect id from cranes;\n", "select"),
        ("<!-- moment was removed -->\n<div></div>\n", "moment"),
        ("; old ini comment naming redis\nhost = db\n", "redis"),
    ],
)
def test_comments_of_every_common_shape_are_found(text: str, needle: str) -> None:
    assert commented(text, needle)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("import pandas as pd\n", "pandas"),
        ('url = "https://example.org/pandas"\n', "pandas"),
        ('note = "a # sign then pandas"\n', "pandas"),
        ("#include <boost/asio.hpp>\n", "boost"),
        ("#[derive(Serialize)]\nstruct Crane;\n", "Serialize"),
        ("color: #fff; font: moment;\n", "moment"),
        ('query = """select * from cranes"""\n', "select"),
        ("*ptr = pandas_count;\n", "pandas"),
        ("docker build \\\n  --no-cache --push-to quay \\\n  .\n", "quay"),
        ("git push \\\n  --force origin main\n", "force"),
    ],
)
def test_code_strings_and_preprocessor_lines_are_not_comments(text: str, needle: str) -> None:
    assert not commented(text, needle)


def test_in_prose_files_only_html_comments_are_comments() -> None:
    runbook = "# Deploying with kubectl\n\n* run `git push --force` to redeploy\n<!-- helm was dropped -->\n"
    spans = comment_spans(runbook, "docs/runbook.md")
    assert not spans.covers(runbook.index("kubectl")) and not spans.covers(runbook.index("--force"))
    assert spans.covers(runbook.index("helm"))
    assert comment_spans(runbook, "scripts/deploy.sh").covers(runbook.index("kubectl"))  # a shell comment there


def test_a_banned_name_only_in_comments_is_not_a_violation(tmp_path: Path) -> None:
    rule = "Never use pandas.read_csv on the landing files; use polars.scan_csv."
    draft = (
        '"""Loads the landing files.\n\nWe used pandas.read_csv before; it ran out of memory."""\n'
        "import polars\n\n"
        "def load(path):\n"
        "    # pandas.read_csv is banned here (see the rule)\n"
        "    return polars.scan_csv(path)  # not pandas.read_csv\n"
    )
    with Forethought.open(tmp_path / "m.db", embedder="hashing") as memory:
        scope = memory.scope("project", "harbour")
        record = memory.retain(scope, rule, kind="dependency_policy", check=derive_patterns(rule)).record
        assert memory.check(scope, draft, records=[record], path="etl/load.py").violations == []
        used = draft + "\ndef legacy(path):\n    return pandas.read_csv(path)\n"
        [v] = memory.check(scope, used, records=[record], path="etl/load.py").violations
        assert v.excerpt == "return pandas.read_csv(path)"


def test_a_required_call_named_only_in_a_comment_is_still_missing(tmp_path: Path) -> None:
    rule = "Every crane command goes through with_deadline()."
    with Forethought.open(tmp_path / "m.db", embedder="hashing") as memory:
        scope = memory.scope("project", "harbour")
        patterns = CheckPatterns(require=(r"\bwith_deadline\s*\(",))
        record = memory.retain(scope, rule, kind="architecture", check=patterns).record
        mentioned = "def lift(c):\n    # TODO: wrap in with_deadline() later\n    return c.lift()\n"
        [v] = memory.check(scope, mentioned, records=[record], path="cranes/lift.py").violations
        assert v.source == "pattern" and v.excerpt == ""
        done = "def lift(c):\n    return with_deadline(c.lift)\n"
        assert memory.check(scope, done, records=[record], path="cranes/lift.py").violations == []


def test_the_closing_quotes_of_a_code_string_do_not_open_a_docstring() -> None:
    elixir = (
        '  @moduledoc """\n  Flushes counters.\n  """\n\n  def init(s) do\n    :timer.send_interval(5000, :flush)\n'
    )
    assert not commented(elixir, ":timer.send_interval")
    python = 'QUERY = """\nselect id\nfrom cranes\n"""\nimport pandas\n'
    assert not commented(python, "import pandas") and not commented(python, "select id")


@pytest.mark.parametrize(
    ("line", "is_comment"),
    [
        ("# keep 30 days", True),
        ("  -- was 90 days", True),
        ("/* timeout = 5 */", True),
        ("<!-- ttl 60 -->", True),
        ("  * retries: 3", True),
        ("  --max-retries=10 \\", False),
        ("#[cfg(test)] const MAX_RETRIES: u32 = 10;", False),
        ("retries: 3  # was 5", False),
    ],
)
def test_a_line_is_a_comment_from_its_start_or_not(line: str, is_comment: bool) -> None:
    assert comment_line(line) is is_comment
