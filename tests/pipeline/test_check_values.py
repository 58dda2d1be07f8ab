"""Values: a draft line that sets what a rule fixes to another value. Rules and drafts are written
for these tests (an invented drone fleet, its uploader and its build)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forethought import Forethought
from forethought.domain import Record, Status
from forethought.domain.times import utcnow
from forethought.memory.writing import Draft, new_record
from forethought.pipeline.check_values import value_conflicts
from forethought.text.quantities import line_values, rule_quantities


def rule(statement: str) -> Record:
    draft = Draft(kind="constraint", statement=statement)
    return new_record("x" * 64, draft, status=Status.ACTIVE, occurred_at=utcnow(), now=utcnow())


def conflicts(statement: str, draft: str) -> list[str]:
    return [c.line for c in value_conflicts(draft, [rule(statement)])]


@pytest.mark.parametrize(
    ("statement", "text", "dimension", "value", "bound", "ruled_out"),
    [
        ("Uploads go in 512 KiB parts.", "512 KiB", "bytes", 524288.0, "exact", False),
        ("The soak test runs 24 hours.", "24 hours", "seconds", 86400.0, "exact", False),
        ("Interpolation looks back at most 80 ms.", "80 ms", "seconds", 0.08, "max", False),
        ("Clients wait at least 2 s before a retry.", "2 s", "seconds", 2.0, "min", False),
        ("Audit events are kept for 180 days (60 days no longer).", "60 days", "seconds", 5184000.0, "exact", True),
        ("Static assets use Cache-Control: public, max-age=600.", "max-age=600", "plain", 600.0, "exact", False),
        ("Jobs give up after at most 3 attempts.", "3 attempts", "count", 3.0, "max", False),
    ],
)
def test_a_rule_fixes_values_with_units_bounds_and_exclusions(
    statement: str, text: str, dimension: str, value: float, bound: str, ruled_out: bool
) -> None:
    found = {q.text: q for q in rule_quantities(statement)}
    assert text in found
    q = found[text]
    assert (q.dimension, q.value, q.bound, q.ruled_out) == (dimension, pytest.approx(value), bound, ruled_out)


def test_versions_are_read_after_a_tools_name_and_a_plus_is_a_floor() -> None:
    found = [(q.version, q.bound, q.ruled_out) for q in rule_quantities("MSRV is Rust 1.74 (not 1.75+).")]
    assert found == [((1, 74), "exact", False), ((1, 75), "min", True)]
    assert [q.version for q in rule_quantities("Zephyr is pinned to v3.7.0.")] == [(3, 7, 0)]
    assert rule_quantities("The servers tick at 60 in the lobby.") == []  # prose, no tool, no unit


def test_prose_numbers_without_a_unit_fix_nothing() -> None:
    assert rule_quantities("Put the 2 services behind the gateway and keep it simple.") == []
    assert rule_quantities("Geometry is stored in EPSG:4326 with a geom_3857 column.") == []


@pytest.mark.parametrize(
    ("line", "value", "dimension"),
    [
        ("PART_SIZE = 512 * 1024", 524288.0, None),
        ("BUFFER = 1 << 20", 1048576.0, None),
        ("const LookBack = 120 * time.Millisecond", 0.12, "seconds"),
        ("soak_hours: 12", 43200.0, "seconds"),
        ("TIMEOUT_MS = 250", 0.25, "seconds"),
        ("PAGE_DELAY_S = 600", 600.0, "seconds"),
        ("scrape_timeout_s: 30", 30.0, "seconds"),
        ("retention: 30d", 2592000.0, "seconds"),
        ("SELECT add_retention_policy('audit', INTERVAL '60 days');", 5184000.0, "seconds"),
    ],
)
def test_a_line_says_its_unit_in_the_value_or_the_key(line: str, value: float, dimension: str | None) -> None:
    first = next(v for v in line_values(line) if v.dimension != "version")
    assert (first.value, first.dimension) == (pytest.approx(value), dimension)


def test_a_comment_sets_nothing() -> None:
    assert line_values("# chunk_size = 4096 was too big") == []
    assert line_values("// TIMEOUT_MS = 10") == []


@pytest.mark.parametrize(
    ("statement", "bad", "good"),
    [
        ("Uploads go in 512 KiB parts.", "PART_SIZE = 1024 * 1024", "PART_SIZE = 512 * 1024"),
        ("The soak test runs 24 hours.", "soak_hours: 12", "soak_hours: 24"),
        ("Interpolation looks back at most 80 ms.", "const LookBack = 120 * time.Millisecond",
         "const LookBack = 50 * time.Millisecond"),
        ("Audit events are kept for 180 days (60 days no longer).",
         "SELECT add_retention_policy('audit_events', INTERVAL '60 days');", "audit_retention: 180d"),
        ("Static assets use Cache-Control: public, max-age=600.",
         'res.setHeader("Cache-Control", "public, max-age=86400")', 'res.setHeader("Cache-Control", "max-age=600")'),
        ("Builds use Node 20; Node 18 is no longer supported.", "FROM node:18-alpine", "node-version: 20.11"),
        ("MSRV is Rust 1.74 (not 1.75+).", "- uses: dtolnay/rust-toolchain@1.76", 'rust-version = "1.74"'),
        ("Jobs give up after at most 3 attempts.", "MAX_ATTEMPTS = 5", "max_attempts: 2"),
        ("A drone below 20% state of charge returns to base.", "if drone.soc < 0.15:", "if drone.soc < 0.2:"),
        ("Every HTTP client sets a timeout of at least 2 s.", "requests.get(url, timeout=0.5)",
         "requests.get(url, timeout=5)"),
        ("Uploads go in 4 KB blocks.", "BLOCK = 8192", "BLOCK = 4096"),
        # bounds, bare numbers after a bound, units in keys, a negation turning a bound
        ("CI jobs have `timeout-minutes` of at most 30.", "timeout-minutes: 120", "timeout-minutes: 20"),
        ("Lobby pages list at most 50 rooms per page.", "ROOMS_PER_PAGE = 200", "ROOMS_PER_PAGE = 25"),
        ("Helm charts set `podDisruptionBudget.minAvailable: 1` for every service.", "minAvailable: 0",
         "minAvailable: 1"),
        ("The scheduler never books more than 150 ms of jitter into a slot.", "max_jitter_ms: 250",
         "max_jitter_ms: 100"),
        ("Render nodes run at most 4 jobs concurrently.", "concurrency: 16", "concurrency: 2"),
        ("Webhook calls time out after 10 seconds.", "client := &http.Client{Timeout: 60 * time.Second}",
         "client := &http.Client{Timeout: 10 * time.Second}"),
        ("Upload bodies are capped at 25 MiB.", "client_max_body_size = 100m", "client_max_body_size = 25m"),
        ("The on-call pager escalates within 5 minutes.", "PAGER_ESCALATE_S = 900", "PAGER_ESCALATE_S = 300"),
        ("A badge cannot open the same turnstile again within 2 minutes.", "REENTRY_WINDOW_S = 300",
         "REENTRY_WINDOW_S = 120"),
    ],
)  # fmt: skip
def test_a_line_setting_another_value_is_flagged_and_the_right_one_is_not(statement: str, bad: str, good: str) -> None:
    assert conflicts(statement, bad) == [bad]
    assert conflicts(statement, good) == []


def test_a_value_for_another_subject_is_left_alone() -> None:
    statement = "A drone below 20% state of charge returns to base."
    assert conflicts(statement, "if drone.speed < 2.5:") == []
    assert conflicts("The soak test runs 24 hours.", "cache_hours: 1") == []


def test_the_rules_other_values_of_that_dimension_are_allowed() -> None:
    statement = "Ranked servers tick at 60 Hz and casual ones at 30 Hz."
    assert conflicts(statement, "casual:\n  tick_hz: 30\nranked:\n  tick_hz: 60\n") == []
    assert conflicts(statement, "tick_hz: 20") == ["tick_hz: 20"]


def test_the_check_reports_a_value_conflict_with_the_line_and_the_fix(tmp_path: Path) -> None:
    with Forethought.open(tmp_path / "m.db", embedder="hashing") as memory:
        scope = memory.scope("project", "fleet")
        record = memory.retain(scope, "Uploads go in 512 KiB parts.", kind="constraint").record
        draft = "import os\n\nPART_SIZE = 1024 * 1024  # bigger is faster\nWORKERS = 4\n"
        report = memory.check(scope, draft, records=[record], path="uploader/parts.py")
        [v] = report.violations
        assert (v.source, v.excerpt) == ("value", "PART_SIZE = 1024 * 1024  # bigger is faster")
        assert "512 KiB" in v.suggestion and v.record_id == record.id
        msrv = memory.retain(scope, "MSRV is Rust 1.74 (not 1.75+).", kind="constraint").record
        [ruled] = memory.check(scope, "- uses: dtolnay/rust-toolchain@1.76", records=[msrv], path="ci.yml").violations
        assert "which memory rules out (not 1.75+)" in ruled.message and "not not" not in ruled.message
        support = memory.scope("support", "desk")
        reply = memory.retain(support, "The router takes 5 minutes to restart.", kind="fact").record
        said = memory.check(support, "restart_wait: 10m", records=[reply])
        assert [v for v in said.violations if v.source == "value"] == []  # the app does not check values


def test_a_measured_duration_fixes_nothing() -> None:
    statement = "Grid search over the whole map took about 2 s per request at peak, so we dropped it."
    assert conflicts(statement, "SELECT add_retention_policy('grid_cache', INTERVAL '30 days');") == []


def test_a_min_prefix_in_a_key_is_not_minutes() -> None:
    [value] = [v for v in line_values("minAvailable: 0") if v.dimension != "version"]
    assert value.dimension is None


def test_one_shared_word_of_a_lines_context_is_not_enough() -> None:
    statement = "The message queue visibility timeout for the label queue is 120 seconds."
    assert conflicts(statement, "SELECT purge('message_log', INTERVAL '30 days');") == []


def test_a_kilobyte_reads_both_ways_and_a_kibibyte_one_way() -> None:
    assert conflicts("Scan uploads are at most 25 MB.", "MAX_UPLOAD_BYTES = 25_000_000") == []
    assert conflicts("Scan uploads are capped at 25 MiB.", "MAX_UPLOAD_BYTES = 25_000_000") == [
        "MAX_UPLOAD_BYTES = 25_000_000"
    ]
    assert conflicts("Scan uploads are capped at 25 MiB.", "MAX_UPLOAD_BYTES = 25 << 20") == []


def test_a_value_on_a_line_about_something_else_is_left_alone(tmp_path: Path) -> None:
    statement = "The queue consumer retries a message at most 3 times."
    seeding = "for i in 1 2 3 4 5; do\n  echo seeding\ndone\nMAX_RETRIES=10 curl -s localhost\n"
    consumer = "queue:\n  consumer:\n    prefetch: 20\n    max_retries: 10\n"
    assert conflicts(statement, seeding) == ["MAX_RETRIES=10 curl -s localhost"]  # the words alone tie them
    with Forethought.open(tmp_path / "m.db", embedder="minilm") as memory:
        scope = memory.scope("project", "fleet")
        record = memory.retain(scope, statement, kind="constraint").record
        assert memory.check(scope, seeding, records=[record], path="scripts/seed.sh").violations == []
        [v] = memory.check(scope, consumer, records=[record], path="config/queue.yaml").violations
        assert (v.source, v.excerpt) == ("value", "max_retries: 10")
    with Forethought.open(tmp_path / "h.db", embedder="hashing") as memory:  # the floor is MiniLM's alone
        scope = memory.scope("project", "fleet")
        record = memory.retain(scope, statement, kind="constraint").record
        assert len(memory.check(scope, seeding, records=[record], path="scripts/seed.sh").violations) == 1


def test_an_actions_own_release_is_not_the_tools_version() -> None:
    statement = "The uploader runs PHP 8.3; PHP 8.1 is no longer supported."
    assert conflicts(statement, "      - uses: shivammathur/setup-php@v2") == []
    assert conflicts(statement, "          php-version: '8.1'") == ["php-version: '8.1'"]
    assert conflicts("MSRV is Rust 1.74 (not 1.75+).", "- uses: dtolnay/rust-toolchain@1.76") != []


def test_a_restated_value_without_a_subject_ties_no_loop_counter() -> None:
    statement = "The render job timeout is 1200 seconds (20 minutes), replacing the earlier 900 s."
    assert conflicts(statement, "for ($i = 0; $i < 120; $i++) {") == []
    assert conflicts(statement, "render_job_timeout_seconds: 600") == ["render_job_timeout_seconds: 600"]
