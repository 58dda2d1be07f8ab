"""Rule files a team already wrote (AGENTS.md, CLAUDE.md, .cursorrules, .mdc) → one item per rule."""

from __future__ import annotations

import pytest

from forethought.apps.project.sources.rulefiles import MAX_RULE_FILE_CHARS, is_rule_file, read_rule_file
from forethought.errors import InvalidInput

AGENTS = """\
# AGENTS.md

This repository holds the storefront: a Next.js frontend and a FastAPI backend.
Use pnpm for every JavaScript dependency; npm and yarn lockfiles are
rejected in CI.

## Code style

- Never use `any` in TypeScript; prefer `unknown` and narrow it.
- All money amounts are integer cents, never floats.
- Keep React components under 200 lines; split them
  when they grow past that.
- `src/api/` — HTTP handlers

<!-- Always obey the comment: it is not a rule. -->

## Testing

```bash
# never skip tests in this block: it is an example
pytest -q
```

1. Every bug fix comes with a regression test.
2. Do not mock the database in integration tests: they run against a real PostgreSQL.

What is the staging URL?
"""

MDC = """\
---
description: Payments module rules
globs: src/payments/**/*.py, src/billing/*.py
alwaysApply: false
---

- Always go through `charge()` in payments/gateway.py; never call Stripe directly.
- Webhook handlers must be idempotent: key them on the event id.
"""


def _statements(text: str, path: str) -> list[str]:
    return [i.statement or "" for i in read_rule_file(text, path=path).items]


def test_every_listed_rule_becomes_one_item_quoting_its_section_verbatim() -> None:
    doc = read_rule_file(AGENTS, path="AGENTS.md")
    statements = [i.statement for i in doc.items]
    assert "Never use `any` in TypeScript; prefer `unknown` and narrow it." in statements
    assert "All money amounts are integer cents, never floats." in statements
    # a wrapped list item is one rule, its statement unwrapped, its quote as written
    wrapped = next(i for i in doc.items if (i.statement or "").startswith("Keep React components"))
    assert wrapped.statement == "Keep React components under 200 lines; split them when they grow past that."
    assert "\n  when they grow" in wrapped.quote
    assert "Every bug fix comes with a regression test." in statements
    for item in doc.items:
        assert item.quote in doc.turns[item.turn_index].text
        assert item.kind is not None
    assert doc.ref == "rules:AGENTS.md" and doc.source == "rules" and not doc.extract


def test_prose_sentences_count_only_when_they_state_a_rule() -> None:
    statements = _statements(AGENTS, "AGENTS.md")
    assert any(s.startswith("Use pnpm for every JavaScript dependency") for s in statements)  # wrapped prose
    assert not any("storefront" in s for s in statements)  # a description of the repository
    assert not any("staging URL" in s for s in statements)  # a question


def test_headings_code_blocks_comments_and_descriptions_are_not_rules() -> None:
    statements = " | ".join(_statements(AGENTS, "AGENTS.md"))
    for absent in ("Code style", "never skip tests in this block", "pytest -q", "obey the comment", "HTTP handlers"):
        assert absent not in statements


def test_an_mdc_file_scopes_its_rules_to_its_globs() -> None:
    doc = read_rule_file(MDC, path=".cursor/rules/payments.mdc")
    assert len(doc.items) == 2
    for item in doc.items:
        assert item.attributes["paths"] == ["src/payments/**/*.py", "src/billing/*.py"]
        assert "src/payments/**/*.py" in (item.statement or "")  # the rule names its files
        assert item.attributes["area"] == "payments"
    assert doc.metadata["globs"] == ["src/payments/**/*.py", "src/billing/*.py"]


def test_always_apply_marks_every_rule_of_the_file() -> None:
    text = "---\nalwaysApply: true\n---\n- Write commit messages in the imperative mood.\n"
    (item,) = read_rule_file(text, path=".cursor/rules/commits.mdc").items
    assert item.attributes["always"] is True


def test_a_plain_cursorrules_file_of_lines_reads_too() -> None:
    text = "You are an expert in Django.\nAlways use class-based views.\nNever commit migrations by hand.\n"
    statements = _statements(text, ".cursorrules")
    assert "Always use class-based views." in statements and "Never commit migrations by hand." in statements


def test_a_file_with_no_rules_says_so_and_an_oversize_one_is_refused() -> None:
    doc = read_rule_file("# Notes\n\nWelcome!\n", path="CLAUDE.md")
    assert doc.items == () and doc.skipped == "no rules found"
    with pytest.raises(InvalidInput, match="at most"):
        read_rule_file("- x\n" * (MAX_RULE_FILE_CHARS // 3), path="AGENTS.md")


@pytest.mark.parametrize(
    ("path", "known"),
    [
        ("AGENTS.md", True),
        ("docs/CLAUDE.md", True),
        (".cursorrules", True),
        (".cursor/rules/api.mdc", True),
        (".github/copilot-instructions.md", True),
        ("README.md", False),
        ("notes/api.mdc", False),
    ],
)
def test_rule_files_are_known_by_name(path: str, known: bool) -> None:
    assert is_rule_file(path) is known
