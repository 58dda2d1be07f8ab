"""Checkable forms derived from a rule's own words: each catches its violating line and spares
compliant code. Rules and drafts are written for these tests (an invented shop and clinic)."""

from __future__ import annotations

import re
import time

import pytest

from forethought.apps.project.forms import form_patterns
from forethought.apps.project.patterns import derive_patterns


def flagged(rule: str, draft: str) -> list[str]:
    check = derive_patterns(rule)
    patterns = [re.compile(p, re.M) for p in (check.forbid if check else ())]
    return [line for line in draft.splitlines() if any(p.search(line) for p in patterns)]


@pytest.mark.parametrize(
    ("rule", "bad", "good"),
    [
        ("Never call `legacyFetch`; use the api client.", "const r = legacyFetch(url);", "const r = modernFetch(url);"),
        ("The cart worker never writes to the orders table.", "UPDATE orders SET total = 0", "SELECT * FROM orders"),
        (
            "Card numbers and emails never go into logs or Sentry.",
            "logger.info('paid %s', card_number)",
            "logger.info('paid %s', order_id)",
        ),
        (
            "Prices are integer cents; never floats or toFixed.",
            "return (c / 100).toFixed(2);",
            "return formatCents(c);",
        ),
        (
            "Styles use vanilla-extract; no new .module.css files.",
            "import s from './Cart.module.css';",
            "import * as s from './Cart.css';",
        ),
        ("Releases go through the release CLI (make publish is gone).", "make publish", "release-cli publish"),
        ("Dependencies use exact version pins, never ranges.", 'version: [">=1.3.0", "<2.0.0"]', "version: 1.3.2"),
        (
            "Every public function has type hints including the return type.",
            "def total(cart: Cart):",
            "def total(cart: Cart) -> int:",
        ),
        (
            "Metric keys and log keys are snake_case.",
            'log.Info("paid", "orderId", id)',
            'log.Info("paid", "order_id", id)',
        ),
        (
            "No search may use leading wildcards.",
            'query={"wildcard": {"sku": f"*{q}*"}}',
            'query={"prefix": {"sku": q}}',
        ),
        (
            "Schema changes are additive; never a rename or drop in the same release.",
            "ALTER TABLE carts DROP COLUMN note;",
            "ALTER TABLE carts ADD COLUMN note text;",
        ),
        (
            "No discount logic in Python; the pricing service owns it.",
            "DISCOUNTS = {'vip': 0.1}",
            "price = svc.quote(cart)",
        ),
        (
            "Jobs take only ids as arguments, never names or emails.",
            "def notify(order_id, customer_email):",
            "def notify(order_id, customer_id):",
        ),
        ("No module outside src/db imports knex.", "import knex from 'knex';", "import { db } from '../db';"),
        (
            "Nothing else calls Stripe directly; use billing.charge().",
            "import Stripe from 'stripe';",
            "import { charge } from './billing';",
        ),
        (
            "Orders are never hard-deleted; they are soft-deleted through deleted_at.",
            "  DELETE FROM shop.orders WHERE placed_at < now() - interval '2 years';",
            "UPDATE orders SET deleted_at = now() WHERE id = $1;\nDELETE FROM order_drafts WHERE id = $1;",
        ),
    ],
)
def test_a_form_flags_the_violating_line_and_spares_compliant_code(rule: str, bad: str, good: str) -> None:
    assert flagged(rule, bad) == [bad]
    assert flagged(rule, good) == []


def test_names_with_regex_metacharacters_are_escaped() -> None:
    table = "The cart worker never writes to the cart.v2 table."
    assert any(re.escape("cart.v2") in p for p in form_patterns(table))
    assert flagged(table, "UPDATE cart.v2 SET n = 1") and not flagged(table, "UPDATE cartXv2 SET n = 1")
    call = "fmt.Sprintf is deprecated, use the builder."
    assert flagged(call, "s := fmt.Sprintf(x)") and not flagged(call, "s := fmtXSprintf(x)")
    suffix = "No new .module.css files."
    assert flagged(suffix, "import s from './A.module.css';") and not flagged(suffix, "import s from './AXmoduleXcss';")


def test_the_allowed_alternative_a_rule_names_is_not_forbidden() -> None:
    rule = "moment.js is deprecated, use luxon."
    assert flagged(rule, "import moment from 'moment';") and not flagged(rule, "import { DateTime } from 'luxon';")


_FORM_RULES = [
    "The cart worker never writes to the orders table.",
    "Card numbers and emails never go into logs or Sentry.",
    "Dependencies use exact version pins, never ranges.",
    "Every public function has type hints including the return type.",
    "Log keys are snake_case.",
    "No search may use leading wildcards.",
    "Schema changes are additive; never a rename or drop in the same release.",
    "No discount logic in Python.",
    "Jobs take only ids as arguments, never names or emails.",
]
_HOSTILE = [
    "logger.info(" + "x" * 100_000,
    "version: " + ">" * 100_000,
    "def f(" + "a, " * 40_000,
    "query " + "'" * 100_000,
    "args = (" + "n" * 100_000,
    "DISCOUNT" * 12_000,
]


def test_form_patterns_are_bounded_and_run_fast_on_100kb() -> None:
    patterns = [p for rule in _FORM_RULES for p in form_patterns(rule)]
    assert len(patterns) >= 10
    for pattern in patterns:
        compiled = re.compile(pattern, re.MULTILINE)
        assert len(pattern) <= 500, pattern
        for text in _HOSTILE:
            start = time.perf_counter()
            compiled.search(text)
            assert time.perf_counter() - start < 1.0, pattern  # a guard against blow-ups, not a benchmark
