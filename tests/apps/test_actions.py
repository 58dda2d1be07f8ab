"""Forbidden actions read off a rule's verbs, and the calls and commands that perform them; names
banned in lists the rule writes compactly. Rules and drafts are written for these tests (an
invented greenhouse controller, a print shop and a ferry booking app)."""

from __future__ import annotations

import re

import pytest

from forethought import Forethought
from forethought.apps.project.actions import action_patterns
from forethought.apps.project.banned import normalised
from forethought.apps.project.patterns import derive_patterns


def flagged(rule: str, line: str) -> bool:
    patterns = derive_patterns(rule)
    return patterns is not None and any(re.search(p, line, re.M) for p in patterns.forbid)


@pytest.mark.parametrize(
    ("rule", "bad", "good"),
    [
        (  # calls by name
            "The dashboard only reads sensors; no write calls to the PLC, ever.",
            "plc.writeRegister(40001, 1)",
            "plc.readRegister(40001)",
        ),
        (
            "No direct fetch calls in components; everything goes through the api client.",
            "const r = await fetch('/api/jobs')",
            "const r = await apiClient.get('/api/jobs')",
        ),
        (  # the action as an identifier, from a gerund
            "Never throttle uploads by sleeping threads; use the token bucket.",
            "sleepThread(500);",
            "bucket.take(1);",
        ),
        (  # the action as an identifier, from "never <verb> <object>"
            "Bookings are never hard-deleted; never purge bookings, mark them cancelled.",
            "await purgeBookings(olderThan);",
            "await cancelBooking(id);",
        ),
        (  # commands run
            "The storefront never runs imagemagick; resizing happens in the render service.",
            'subprocess.run(["imagemagick", "-resize", "50%", src, dst])',
            "render_client.resize(src, width=800)",
        ),
        (
            "Build scripts never shell out to curl; downloads go through the cached fetcher.",
            "curl -sSL https://example.invalid/tool.tgz -o tool.tgz",
            "./fetcher get tool.tgz",
        ),
        # names a rule bans in compact lists and product names
        (
            "Dashboards chart with Vega-Lite; Highcharts (and highcharts-react-official) must not be added.",
            "import HighchartsReact from 'highcharts-react-official';",
            "import { VegaLite } from 'react-vega';",
        ),
        (
            "Schedules are kept in Postgres; Kafka/RabbitMQ are not allowed for this service.",
            "from kafka import KafkaProducer",
            "import psycopg",
        ),
        (
            "Local tests use the real Postgres container; no SQLite stand-ins.",
            "import sqlite3",
            "import psycopg2",
        ),
        (
            "Geometry uses Shapely; the Esri ArcGIS SDK is not allowed (licensing).",
            "import arcgis",
            "from shapely.geometry import Polygon  # not the sdk",
        ),
        (
            "Do not use SummingMergeTree for the counters table; aggregate in the query.",
            "ENGINE = SummingMergeTree",
            "ENGINE = MergeTree",
        ),
        (  # a product word qualifying a code name bans the code name alone
            "Search goes through opensearch-java; the Elasticsearch RestHighLevelClient is banned.",
            "private final RestHighLevelClient client;",
            "import org.elasticsearch.core.TimeValue;",
        ),
    ],
)
def test_a_forbidden_action_or_name_is_found_where_the_draft_uses_it(rule: str, bad: str, good: str) -> None:
    assert flagged(rule, bad)
    assert not flagged(rule, good)


def test_a_longer_word_and_a_rule_with_an_exception_are_left_alone() -> None:
    assert not flagged("No write calls from the dashboard.", "const writer = makeWriter; writers(list)")
    assert action_patterns("Never runs ffmpeg unless the file is under 1 MB.") == []
    assert action_patterns("The web app never runs the tests.") == []  # "the": no command named


def test_a_channel_the_work_goes_through_is_not_banned() -> None:
    rule = "Thumbnails are rendered only in the worker via pg-boss jobs; the API never renders images."
    assert not flagged(rule, "import PgBoss from 'pg-boss';")


def test_the_generic_last_word_of_a_product_is_not_banned() -> None:
    rule = "Maps use MapLibre; the Mapbox GL SDK is not allowed."
    assert not flagged(rule, "import org.maplibre.android.sdk.MapView;")
    assert flagged(rule, "import mapboxgl from 'mapbox-gl';")


def test_lists_are_spelled_out_but_paths_and_acronyms_stay() -> None:
    assert normalised("Vue (and Nuxt) must not be added") == "Vue and Nuxt must not be added"
    assert normalised("BullMQ/Redis are out") == "BullMQ or Redis are out"
    assert normalised("only src/ipc calls invoke") == "only src/ipc calls invoke"
    assert normalised("no TCP/IP tuning") == "no TCP/IP tuning"


def test_a_retained_rule_flags_the_line_that_performs_the_action(memory: Forethought) -> None:
    scope = memory.scope("project", "greenhouse")
    memory.retain(scope, "The monitor is read-only: no write calls to the vent controller.", kind="constraint")
    draft = "state = ctl.readState()\nctl.writeSetpoint(vent, 0.4)\n"
    report = memory.check(scope, draft, path="monitor/loop.py")
    assert [v.excerpt for v in report.violations] == ["ctl.writeSetpoint(vent, 0.4)"]
    assert memory.check(scope, "state = ctl.readState()\n", path="monitor/loop.py").clean
