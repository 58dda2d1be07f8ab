"""Where a rule's patterns apply: a draft's path and language, a rule's scope read off its words.
Rules and drafts are written for these tests (an invented shop, its mobile app and its tools)."""

from __future__ import annotations

import pytest

from forethought.domain import Evidence, Record, Role, Status
from forethought.domain.times import utcnow
from forethought.memory.writing import Draft, new_record
from forethought.pipeline.check_scope import draft_facts, forbid_applies, require_applies, rule_scope


def rule(statement: str, *, quote: str = "", tags: tuple[str, ...] = ()) -> Record:
    evidence = (Evidence(quote=quote, session_id="s1", turn_index=0, role=Role.USER),) if quote else ()
    draft = Draft(kind="convention", statement=statement, tags=tags, evidence=evidence)
    return new_record("x" * 64, draft, status=Status.ACTIVE, occurred_at=utcnow(), now=utcnow())


@pytest.mark.parametrize(
    ("path", "content", "tag"),
    [
        ("web/src/Cart.tsx", "", "tsx"),
        ("tools/flash.py", "", "python"),
        (None, "#!/usr/bin/env python3\nprint('hi')", "python"),
        (None, "#!/bin/bash\nset -e", "shell"),
        (None, "package main\n\nfunc main() {}", "go"),
        (None, "import { useState } from 'react';", "typescript"),
        (None, "from pathlib import Path\n", "python"),
        (".github/workflows/release.yml", "", "ci"),
        (None, "jobs:\n  build:\n    runs-on: ubuntu-latest", "ci"),
        ("db/migrations/0002_add_sku.sql", "", "migrations"),
    ],
)
def test_a_drafts_language_comes_from_its_path_else_its_content(path: str | None, content: str, tag: str) -> None:
    assert tag in draft_facts(content, path).tags


def test_prose_without_a_path_has_no_language() -> None:
    assert draft_facts("We should keep the cart small and fast.").tags == frozenset()


def test_a_rule_names_its_languages_folders_and_exemptions() -> None:
    scope = rule_scope(rule("Python tools in tools/ use typer; no package outside internal/store imports pgx."))
    assert "python" in scope.strict_tags and scope.dirs == ("tools/",)
    assert scope.exempt_dirs == ("internal/store/",)
    assert rule_scope(rule("Release images are signed only in CI with imgtool.")).exempt_tags == {"ci"}


def test_evidence_and_the_area_tag_count_towards_the_scope() -> None:
    assert "tsx" in rule_scope(rule("Screens use the Card wrapper.", quote="every .tsx screen, yes")).tags
    assert "typescript" in rule_scope(rule("Screens use the Card wrapper.", tags=("area:frontend",))).strict_tags


def test_a_require_of_a_tsx_rule_does_not_apply_to_a_python_draft() -> None:
    scope = rule_scope(rule("Every screen in .tsx files must go through withTheme()."))
    assert require_applies(scope, draft_facts("export const A = withTheme(B);", "app/A.tsx"))
    assert not require_applies(scope, draft_facts("def handler():\n    pass\n", "api/handler.py"))
    assert not require_applies(scope, draft_facts("no language here"))  # unknown: stay quiet


def test_a_rule_naming_no_scope_keeps_its_require_everywhere() -> None:
    assert require_applies(rule_scope(rule("All POSTs must send the X-Shop-CSRF header.")), draft_facts("x"))


def test_a_forbid_stays_off_a_language_the_rule_places_itself_outside() -> None:
    scope = rule_scope(rule("No retry logic in Python; retries belong to the gateway."))
    assert forbid_applies(scope, draft_facts("", "svc/retry.py"))
    assert not forbid_applies(scope, draft_facts("", "gateway/retry.go"))
    assert forbid_applies(scope, draft_facts("some text"))  # unknown language: the forbid may fire


def test_a_forbid_never_fires_where_the_rule_allows_it() -> None:
    scope = rule_scope(rule("No package outside internal/store imports pgx."))
    assert forbid_applies(scope, draft_facts("", "internal/planner/plan.go"))
    assert not forbid_applies(scope, draft_facts("", "internal/store/db.go"))
    assert not forbid_applies(scope, draft_facts("package planner"))  # no path: cannot tell, so quiet
    ci = rule_scope(rule("Release images are signed only in CI with imgtool."))
    assert not forbid_applies(ci, draft_facts("", ".github/workflows/release.yml"))
    assert forbid_applies(ci, draft_facts("", "scripts/release.sh"))
