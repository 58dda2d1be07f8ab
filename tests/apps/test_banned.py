"""Names a project rule bans, read off its wording, and where they are found in a draft.
Rules and drafts are written for these tests (an invented freight app and a clinic portal)."""

from __future__ import annotations

import re

import pytest

from forethought import Forethought, RetainItem
from forethought.apps.project.banned import banned_patterns
from forethought.apps.project.patterns import derive_patterns


def hits(rule: str, draft: str) -> list[str]:
    patterns = [re.compile(p, re.M) for p in banned_patterns(rule)]
    return [line for line in draft.splitlines() if any(p.search(line) for p in patterns)]


@pytest.mark.parametrize(
    ("rule", "bad", "good"),
    [
        (
            "Logging goes through log/slog only; zap, logrus and zerolog are not allowed and no other logger.",
            'import (\n\t"log/slog"\n\t"go.uber.org/zap"\n)',
            'import (\n\t"log/slog"\n)\nfunc zapTheCache() {}',
        ),
        (
            "Forms use react-hook-form; Formik is no longer used (it was removed in March).",
            "import { Formik } from 'formik';",
            "import { useForm } from 'react-hook-form';\n// Formik-style validation is fine to mention",
        ),
        (
            "CLI tools use typer; argparse must not be added to new tools.",
            "import argparse",
            "import typer\nparser_args = typer.Argument()",
        ),
        (
            "Reports list their columns explicitly and never use select *.",
            "select c.*, o.total from customers c",
            "select c.id, c.name from customers c  -- count(*) is fine",
        ),
        (
            "The HTTP client is httpx; requests-toolbelt and urllib3 are banned.",
            "from urllib3 import PoolManager",
            "import httpx\nretries = 3  # urllib3 style retries are done by httpx",
        ),
    ],
)
def test_a_banned_name_is_found_on_its_line_and_an_allowed_one_is_not(rule: str, bad: str, good: str) -> None:
    found = hits(rule, bad)
    assert found and all(line in bad.splitlines() for line in found)
    assert hits(rule, good) == []


@pytest.mark.parametrize(
    "rule",
    [
        "Never call requests.get without a timeout.",  # an exception the regex cannot see
        "Never use floats for money.",  # an everyday word, not a name
        "All services use Postgres 16 and pgx.",  # nothing negated
        "Keep handlers small.",
    ],
)
def test_rules_that_ban_no_name_derive_nothing(rule: str) -> None:
    assert banned_patterns(rule) == []


def test_a_name_the_rule_also_allows_is_never_banned() -> None:
    rule = "Dates use date-fns; date-fns-tz stays, but moment-timezone is not used."
    assert hits(rule, "import { format } from 'date-fns';\nimport { zonedTimeToUtc } from 'date-fns-tz';") == []
    assert hits(rule, "import moment from 'moment-timezone';")


@pytest.mark.parametrize(
    ("rule", "bad", "good"),
    [
        ("Amounts are integer cents; never floats or toFixed.", "const s = (c / 100).toFixed(2);", "const s = fmt(c);"),
        ("Nothing allocates after boot: no malloc or k_malloc.", "buf = k_malloc(64);", "static uint8_t buf[64];"),
        (
            "State lives in TanStack Query; Redux is not added.",
            "import { useSelector } from 'react-redux';",
            "import { useQuery } from '@tanstack/react-query';",
        ),
        (
            "Styles use vanilla-extract; no new .module.css files.",
            "import s from './A.module.css';",
            "import * as s from './A.css';",
        ),
        ("Evaluation runs through eval-cli (make judge is gone).", "make judge", "eval-cli compare --baseline main"),
    ],
)
def test_names_after_a_negation_and_spoken_commands_are_banned(rule: str, bad: str, good: str) -> None:
    assert hits(rule, bad) == [bad]
    assert hits(rule, good) == []


def test_a_rule_retained_directly_gets_the_patterns_its_words_give(memory: Forethought) -> None:
    scope = memory.scope("project", "ferry")
    record = memory.retain(scope, "Never call `legacyFetch` in the web client; use `apiFetch`.", kind="constraint")
    assert record.record.check is not None and record.record.check.forbid
    report = memory.check(scope, "const r = legacyFetch(url)\nconst s = apiFetch(url)\n", path="web/client.ts")
    assert [v.excerpt for v in report.violations] == ["const r = legacyFetch(url)"]
    note = memory.retain(scope, "Never call `legacyFetch` again.", kind="note")  # not a checkable kind
    assert note.record.check is None


def test_rules_retained_in_bulk_get_their_patterns_too(memory: Forethought) -> None:
    scope = memory.scope("project", "ferry")
    [done] = memory.retain_many(scope, [RetainItem("Never call `legacyFetch` in the web client.", "constraint")])
    assert done.record.check is not None and done.record.check.forbid
    assert memory.check(scope, "legacyFetch(url)\n", path="web/a.ts").violations


@pytest.mark.parametrize(
    ("rule", "bad", "good"),
    [
        # a plain name after "no" or "never import", found on import and dependency lines
        ("No superagent in the portal; HTTP goes through src/net/client.ts.",
         'import superagent from "superagent";', "const agent = getAgent(); // a superagent-like helper"),
        ("Go services log with log/slog; glog and logrus are being removed.",
         '\tlg "github.com/golang/glog"', 'slog.Info("gone", "from", "glog")'),
        ("Use the vault client; never import pycryptodome or keyring in services.",
         '  "pycryptodome>=3.20",', "secrets = vault.read(path)  # keyring is documented in the wiki"),
        ("Android code uses kotlinx.serialization; Jackson-Databind is not used.",
         'implementation("com.fasterxml.jackson.core:jackson-databind:2.17.0")',
         "val json = Json { ignoreUnknownKeys = true }"),
        ("Charts are drawn with plain plotly, not bokeh.", "from bokeh.plotting import figure",
         "import plotly.express as px"),
    ],
)  # fmt: skip
def test_plain_names_are_banned_on_import_and_manifest_lines_only(rule: str, bad: str, good: str) -> None:
    assert hits(rule, bad) == [bad]
    assert hits(rule, good) == []


def test_a_json_key_that_is_not_a_dependency_is_not_a_manifest_entry() -> None:
    rule = "No query bucket may lose more than 1% nDCG."
    assert hits(rule, '  "query": {\n    "match": {}\n  }') == []


def test_names_kept_out_of_a_place_are_not_banned_everywhere() -> None:
    from forethought.apps.project.patterns import derive_patterns

    rule = "Logs carry only the hashed visit_ref; raw visit_id, names and emails are not allowed in logs."
    derived = derive_patterns(rule)
    assert derived is not None
    patterns = [re.compile(p, re.M) for p in derived.forbid]
    lines = ('log.info("seen %s", visit_id)', "visit = db.get(Visit, visit_id)",
             'log.info("seen", extra={"visit_ref": v.visit_ref})')  # fmt: skip
    flagged = [line for line in lines if any(p.search(line) for p in patterns)]
    assert flagged == ['log.info("seen %s", visit_id)']


def test_derived_patterns_always_fit_a_record() -> None:
    from forethought.apps.project.patterns import derive_patterns
    from forethought.domain.limits import MAX_PATTERN_LENGTH, MAX_PATTERNS

    names = ", ".join(f"legacy-http-client-number-{i}-with-a-very-long-package-name" for i in range(30))
    derived = derive_patterns(f"Never import {names}; they are all banned.")
    assert derived is not None
    assert len(derived.forbid) + len(derived.require) <= MAX_PATTERNS
    assert all(len(p) <= MAX_PATTERN_LENGTH for p in derived.forbid)


@pytest.mark.parametrize(
    ("rule", "bad", "good"),
    [
        (
            "Do not use date-fns for clinic time zones; use date-fns-tz.",
            "import { format } from 'date-fns';",
            "import { formatInTimeZone } from 'date-fns-tz';",
        ),
        (
            "Ship lodash-es in the portal bundle; lodash must not be added.",
            '    "lodash": "^4.17.21",',
            '    "lodash-es": "^4.17.21",',
        ),
        (
            "Freight quotes talk to the cluster through opensearch-java; never use the elasticsearch client.",
            "    implementation 'org.elasticsearch.client:elasticsearch-rest-client:8.11.0'",
            "    implementation 'org.opensearch.client:opensearch-java:2.10.0'",
        ),
        (
            "Use heapless::Vec for telemetry frames; alloc Vec is not allowed.",
            "use alloc::vec::Vec;",
            "use heapless::Vec;",
        ),
    ],
)
def test_a_longer_name_the_rule_allows_beside_a_banned_one_is_left_alone(rule: str, bad: str, good: str) -> None:
    derived = derive_patterns(rule)
    assert derived is not None
    patterns = [re.compile(p, re.M) for p in derived.forbid]
    assert any(p.search(bad) for p in patterns), rule
    assert not any(p.search(good) for p in patterns), rule


@pytest.mark.parametrize(
    ("rule", "bad"),
    [
        ("Stop pulling in requests for the rate poller; the http client is httpx.", "import requests"),
        ("Please stop adding jQuery to the booking pages.", "import $ from 'jquery';"),
        ("Axios has been removed from the portal.", "import axios from 'axios';"),
        ("Guava is off the table for the Android module.", "implementation 'com.google.guava:guava:32.1.2-android'"),
        ("We got rid of Mockito, the tests use fakes.", "import org.mockito.Mockito;"),
        ("Say no to underscore.js in the admin.", "import _ from 'underscore';"),
        ("Don't reach for Celery in the export service.", "from celery import Celery"),
        ("We're moving off Redux; no new Redux code.", "import { createStore } from 'redux';"),
        ("lodash itself must not be added to the portal.", "import _ from 'lodash';"),
    ],
)
def test_bans_said_in_everyday_words_are_found(rule: str, bad: str) -> None:
    derived = derive_patterns(rule)
    assert derived is not None, rule
    assert any(re.search(p, bad, re.M) for p in derived.forbid), rule


@pytest.mark.parametrize(
    "rule",
    ["Don't add another component library.", "Stop adding every field to the log line.", "Say no to more meetings."],
)
def test_everyday_words_after_a_ban_are_not_names(rule: str) -> None:
    assert banned_patterns(rule) == []


@pytest.mark.parametrize(
    "rule",
    [
        "Claims are never hard-deleted; they are soft-deleted through DeletedAt.",
        "Invoices are not editable after posting.",
        "Tokens are never logged.",
        "Dispatch loops are never hand-rolled.",
    ],
)
def test_a_subject_that_is_never_done_to_is_not_a_banned_name(rule: str) -> None:
    assert banned_patterns(rule) == []


def test_backticked_values_that_are_never_set_are_banned() -> None:
    rule = "Log level in production is `info`; `debug` and `trace` are never enabled in prod config."
    assert hits(rule, 'logLevel: debug\nlevel = "trace"\nlevel: info') == ["logLevel: debug", 'level = "trace"']
    assert hits("Clinic workflows use least privilege; `write-all` is never set.", "permissions: write-all") != []
