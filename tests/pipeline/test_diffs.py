"""Checking a unified diff: added lines only, each file with its own path and line numbers."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from forethought import Forethought
from forethought.embed.base import Vectors
from forethought.embed.hashing import HashingEmbedder
from forethought.errors import InvalidInput
from forethought.pipeline.diffs import looks_like_diff, parse_diff

DIFF = """\
diff --git a/src/ui/date.ts b/src/ui/date.ts
index 1111111..2222222 100644
--- a/src/ui/date.ts
+++ b/src/ui/date.ts
@@ -1,4 +1,5 @@
 import { format } from "date-fns";
-import legacy from "./legacy";
+import moment from "moment";
+
 export function show(d: Date) {
   return format(d, "PP");
@@ -20,2 +21,3 @@ export function other() {
   const x = 1;
+  return moment(x).format();
 }
diff --git a/src/old.ts b/src/old.ts
--- a/src/old.ts
+++ b/src/old.ts
@@ -3,2 +3,1 @@
-import moment from "moment";
--- a removed SQL-style comment line
 const y = 2;
diff --git a/docs/new.md b/docs/new.md
new file mode 100644
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1,2 @@
+# Dates
+We format dates with date-fns.
"""


def test_a_diff_is_read_file_by_file_with_the_new_line_numbers() -> None:
    changes = parse_diff(DIFF)
    assert [(c.path, c.new_file) for c in changes] == [("src/ui/date.ts", False), ("docs/new.md", True)]
    assert changes[0].added == ((2, 'import moment from "moment";'), (3, ""), (22, "  return moment(x).format();"))
    assert changes[1].added == ((1, "# Dates"), (2, "We format dates with date-fns."))
    assert looks_like_diff(DIFF) and not looks_like_diff("import moment from 'moment'\n")


def test_text_that_is_not_a_diff_is_refused() -> None:
    with pytest.raises(InvalidInput, match="not a unified diff"):
        parse_diff("just some code\n+ not a hunk\n")


def test_only_added_lines_are_checked_and_each_finding_names_its_file_and_line(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    memory.retain(scope, "Never use moment in the frontend; use date-fns instead.", kind="dependency_policy")
    report = memory.check(scope, DIFF, diff=True)
    assert report.violations, report
    assert {v.path for v in report.violations} == {"src/ui/date.ts"}  # the removal in src/old.ts is no violation
    assert {v.line for v in report.violations} <= {2, 22} and 2 in {v.line for v in report.violations}
    assert all("moment" in v.excerpt for v in report.violations)


def test_a_clean_diff_passes(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    memory.retain(scope, "Never use moment in the frontend; use date-fns instead.", kind="dependency_policy")
    clean = DIFF.replace('+import moment from "moment";', '+import { parseISO } from "date-fns";').replace(
        "+  return moment(x).format();", "+  return format(parseISO(x), 'PP');"
    )
    assert memory.check(scope, clean, diff=True).violations == []


def test_a_require_finding_stands_only_for_a_file_the_diff_creates(memory: Forethought) -> None:
    scope = memory.scope("project", "shop")
    memory.retain(scope, "Every payment route must always call `requireRole()` first.", kind="constraint")
    body = "+export function refund(req) {\n+  return charge(req.body.id);\n+}\n"
    edited = f"--- a/src/payments/route.ts\n+++ b/src/payments/route.ts\n@@ -10,0 +11,3 @@\n{body}"
    created = f"--- /dev/null\n+++ b/src/payments/route.ts\n@@ -0,0 +1,3 @@\n{body}"
    assert [v for v in memory.check(scope, edited, diff=True).violations if not v.excerpt] == []
    missing = [v for v in memory.check(scope, created, diff=True).violations if not v.excerpt]
    assert len(missing) == 1 and missing[0].path == "src/payments/route.ts" and missing[0].line is None


class _Counting(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.seen += list(texts)
        return super().embed(texts)


def test_a_diff_of_many_files_embeds_one_query_and_each_file_keeps_its_own_findings(db_path: Path) -> None:
    embedder = _Counting()
    files = [("src/ui/date.ts", 'import moment from "moment";'), ("src/pay/charge.py", "import requests"),
             ("src/ui/list.ts", "export const rows = [];"), ("src/ui/card.ts", "export const card = 1;")]  # fmt: skip
    diff = "".join(f"--- a/{p}\n+++ b/{p}\n@@ -1,0 +1,1 @@\n+{line}\n" for p, line in files)
    with Forethought.open(db_path, embedder=embedder) as memory:
        scope = memory.scope("project", "shop")
        memory.retain(scope, "Never use moment in the frontend; use date-fns instead.", kind="dependency_policy")
        memory.retain(scope, "Never use requests in the backend; make HTTP calls with httpx.", kind="dependency_policy")
        before = len(embedder.seen)
        report = memory.check(scope, diff, diff=True)
    assert len(embedder.seen) - before == 1  # the diff as a whole, not one query per file
    found = {(v.path, v.excerpt) for v in report.violations}
    assert ("src/ui/date.ts", 'import moment from "moment";') in found
    assert ("src/pay/charge.py", "import requests") in found
    assert {v.path for v in report.violations} == {"src/ui/date.ts", "src/pay/charge.py"}
    assert "recall" in report.timings_ms and "total" in report.timings_ms
