"""Seeded, generated material for the project-speed bench: rules, sessions, tasks and a diff.

Nothing is downloaded. Ten areas (auth, payments, db, frontend, api, deploy, testing,
observability, infra, process) each have their own identifiers, file paths, packages, nouns and
commands; the templates of the six rule kinds (decision, convention, constraint,
dependency_policy, process, architecture) are filled from them, so rules name real-looking code
(`verifyJwt`, `src/payments/webhooks.ts`, `jsonwebtoken@9`) and no two are the same. Sessions are
plain `User:` / `Assistant:` chats of a coding task: a request, the agent's plan, a correction or
a rule from the person, small talk, the result. The diff is a `git diff` of TypeScript, Python and
YAML files with added, removed and context lines.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["AREAS", "Area", "Rule", "rules", "sessions", "tasks"]


@dataclass(frozen=True)
class Area:
    name: str
    idents: tuple[str, ...]
    paths: tuple[str, ...]
    packages: tuple[str, ...]  # (good, banned) pairs are taken two at a time
    nouns: tuple[str, ...]
    commands: tuple[str, ...]


def _area(name: str, idents: str, paths: str, packages: str, nouns: str, commands: str) -> Area:
    return Area(name, *(tuple(s.strip() for s in x.split(";")) for x in (idents, paths, packages, nouns, commands)))


AREAS = (
    _area("auth", "verifyJwt;SessionStore;refreshAccessToken;AuthMiddleware;requireRole;hashPassword;OAuthClient;"
          "csrfToken;revokeSession;TOTP_WINDOW",
          "src/auth/session.ts;src/auth/middleware.ts;src/auth/oauth/google.ts;services/auth/tokens.py;"
          "services/auth/password.py;src/auth/mfa.ts",
          "jose;jsonwebtoken;argon2;bcryptjs;@auth/core;passport",
          "session tokens;refresh tokens;password resets;login attempts;API keys;OAuth callbacks;MFA codes",
          "pnpm test auth;pytest services/auth;make auth-e2e"),
    _area("payments", "chargeCustomer;StripeClient;refundPayment;InvoiceService;webhookSecret;amount_cents;"
          "PaymentIntent;ledgerEntry;settleBatch;currencyCode",
          "src/payments/webhooks.ts;src/payments/checkout.ts;services/billing/invoices.py;"
          "services/billing/ledger.py;src/payments/refunds.ts;services/billing/tax.py",
          "stripe;dinero.js;decimal.js;big.js;py-moneyed;money-math",
          "refunds;invoices;webhook events;card charges;payouts;tax lines;subscription renewals",
          "pnpm test payments;pytest services/billing;make stripe-replay"),
    _area("db", "PrismaClient;withTransaction;runMigration;orders_by_customer;ConnectionPool;softDelete;"
          "readReplica;upsertOrder;QueryBuilder;PGBOUNCER_URL",
          "prisma/schema.prisma;db/migrations/0042_orders.sql;services/db/pool.py;src/db/client.ts;"
          "services/db/repositories/orders.py;db/seeds/dev.sql",
          "prisma;typeorm;sqlalchemy;peewee;psycopg;pg-promise",
          "migrations;foreign keys;indexes;connection pools;read replicas;soft deletes;long transactions",
          "pnpm prisma migrate diff;alembic check;make db-lint"),
    _area("frontend", "useCart;ProductCard;ThemeProvider;formatPrice;DatePicker;useFeatureFlag;CheckoutForm;"
          "ModalRoot;toastError;NavBar",
          "src/components/ProductCard.tsx;src/components/CheckoutForm.tsx;src/hooks/useCart.ts;"
          "src/styles/theme.css;src/pages/account/settings.tsx;src/components/DatePicker.tsx",
          "date-fns;moment;zustand;redux;@tanstack/react-query;axios",
          "buttons;modals;dark mode;date pickers;forms;loading states;tooltips;product cards",
          "pnpm storybook:test;pnpm lint:css;pnpm test:ui"),
    _area("api", "createOrderHandler;ApiError;paginate;rateLimit;X-Request-Id;validateBody;OrderSchema;"
          "idempotencyKey;toProblemJson;apiVersion",
          "src/api/routes/orders.ts;src/api/routes/users.ts;services/api/handlers.py;src/api/schemas/order.ts;"
          "openapi/openapi.yaml;src/api/middleware/errors.ts",
          "zod;joi;fastify;express;pydantic;marshmallow",
          "endpoints;error responses;list endpoints;request bodies;status codes;webhooks;API versions",
          "pnpm openapi:lint;pytest services/api;make contract-test"),
    _area("deploy", "deployCanary;ROLLOUT_PERCENT;helmRelease;buildImage;promoteRelease;DEPLOY_FREEZE;"
          "healthCheck;rollback;blueGreen;IMAGE_TAG",
          "deploy/helm/values.yaml;.github/workflows/deploy.yml;deploy/k8s/api.yaml;Dockerfile;"
          "deploy/argocd/app.yaml;scripts/release.sh",
          "helm;kustomize;docker;buildah;argocd;flux",
          "deploys;canary releases;rollbacks;container images;release tags;hotfixes;database migrations in CI",
          "make deploy-staging;helm lint deploy/helm;scripts/release.sh --dry-run"),
    _area("testing", "renderWithProviders;factoryUser;freezeTime;mockStripe;testDb;snapshotMatch;"
          "waitForIdle;seedFixtures;flakyRetry;pytest_fixture",
          "tests/e2e/checkout.spec.ts;tests/unit/test_ledger.py;tests/conftest.py;src/test/utils.tsx;"
          "playwright.config.ts;tests/integration/test_orders.py",
          "vitest;jest;pytest;nose;playwright;cypress",
          "flaky tests;snapshot tests;fixtures;end-to-end tests;mocks;test databases;coverage",
          "pnpm vitest run;pytest -x;pnpm playwright test"),
    _area("observability", "logger;traceSpan;metricsRegistry;requestId;captureException;LOG_LEVEL;"
          "histogram;auditLog;redactFields;SLO_BURN",
          "src/lib/logger.ts;services/common/telemetry.py;deploy/grafana/dashboards.json;src/lib/tracing.ts;"
          "services/common/logging.py;deploy/alerts/rules.yaml",
          "pino;winston;opentelemetry;structlog;loguru;console",
          "logs;traces;metrics;alerts;dashboards;error reports;audit events",
          "make lint-logs;pnpm test lib/logger;promtool check rules deploy/alerts/rules.yaml"),
    _area("infra", "terraformModule;S3_BUCKET;vpcPeering;redisCluster;kmsKey;QUEUE_URL;iamRole;"
          "cdnCache;natGateway;backupPolicy",
          "infra/terraform/main.tf;infra/terraform/redis.tf;infra/ansible/site.yml;infra/terraform/iam.tf;"
          "infra/docker-compose.yml;infra/terraform/s3.tf",
          "terraform;pulumi;redis;memcached;rabbitmq;kafka",
          "S3 buckets;IAM roles;Redis clusters;queues;VPCs;backups;secrets in the vault",
          "terraform plan;tflint infra/terraform;make infra-validate"),
    _area("process", "CODEOWNERS;CHANGELOG;PR_TEMPLATE;releaseNotes;ADR_INDEX;conventionalCommit;"
          "reviewChecklist;squashMerge;labelTriage;OnCallRota",
          ".github/CODEOWNERS;CHANGELOG.md;.github/pull_request_template.md;docs/adr/README.md;"
          "CONTRIBUTING.md;.github/labeler.yml",
          "commitlint;husky;changesets;semantic-release;lerna;standard-version",
          "pull requests;code reviews;changelog entries;ADRs;release notes;hotfix branches;issue labels",
          "pnpm changeset;make pr-check;gh pr checks"),
)  # fmt: skip

REASONS = (
    "the last incident started exactly there",
    "support spent two days untangling the duplicates",
    "the auditors asked for it in the SOC 2 review",
    "p95 latency doubled the last time we did otherwise",
    "it keeps the code path testable",
    "the vendor deprecates the old API in March",
    "two teams already depend on it",
    "rollbacks were impossible without it",
    "it halved the cloud bill for that service",
    "new hires kept getting it wrong",
    "the old approach leaked memory under load",
    "it is what the on-call runbook assumes",
    "the security review flagged the alternative",
    "mobile clients cache the old shape for weeks",
    "we lost data in staging the one time we skipped it",
)
_VERSIONS = ("1.4", "2.x", "3.2", "4", "5.1", "9", "10.2", "0.28")
TEMPLATES: dict[str, tuple[str, ...]] = {
    "decision": (
        "We decided to handle {noun} in `{ident}` ({path}) with {good} rather than {bad}, because {reason}.",
        "Decision: {noun} go through `{ident}` in {path}; we chose this over calling {bad} directly since {reason}.",
        "We moved {noun} to `{ident}` and will keep them there, because {reason}.",
        "For {noun} we use {good} {version}; {bad} was considered and rejected because {reason}.",
    ),
    "convention": (
        "Every function that touches {noun} in {path} is named with the `{ident}` prefix.",
        "Keep one `{ident}` per module for {noun}, and put it at the top of {path}.",
        "Tests for {noun} live next to {path} and are named after `{ident}`.",
        "Format {noun} with `{ident}` everywhere; never hand-roll the format in {path}.",
    ),
    "constraint": (
        "Never call `{ident}` directly from {path}; go through `{ident2}` because {reason}.",
        "{Noun} must never be written outside `{ident}`; {path} is the only place allowed to.",
        "`{ident}` must time out after {n} seconds for {noun}.",
        "Do not log {noun} from {path}; `{ident2}` redacts them, because {reason}.",
        "{Noun} handled by `{ident}` must be idempotent: retries from {path} happen {n} times.",
    ),
    "dependency_policy": (
        "Do not add `{bad}` to {area} code; use `{good}` {version} instead.",
        "Pin `{good}` to {version} in {area} services; `{bad}` is banned since {reason}.",
        "Only `{good}` may be imported for {noun} in {path}; never `{bad}`.",
        "Upgrade `{good}` only together with `{ident}`, and never pull in `{bad}` for {noun}.",
    ),
    "process": (
        "Before merging a change to {path}, run `{command}` and paste the output in the PR.",
        "Every change to {noun} needs a second reviewer from the {area} owners before merge.",
        "Run `{command}` after touching `{ident}`; CI does not run it for {path}.",
        "Announce changes to {noun} in the {area} channel a day before they ship, because {reason}.",
    ),
    "architecture": (
        "`{ident}` owns {noun}; other modules read them through `{ident2}` only.",
        "{Noun} flow from {path} through `{ident}` to `{ident2}`; nothing skips a layer.",
        "The {area} layer exposes `{ident}` and hides `{ident2}`, which stays private to {path}.",
        "`{ident}` is the single writer of {noun}; `{ident2}` and everything else only read them.",
    ),
}
KINDS = tuple(TEMPLATES)


@dataclass(frozen=True)
class Rule:
    kind: str
    area: str
    text: str


def _fill(template: str, area: Area, rng: random.Random) -> str:
    ident, ident2 = rng.sample(area.idents, 2)
    pair = rng.randrange(0, len(area.packages), 2)
    noun = rng.choice(area.nouns)
    slots = {
        "ident": ident, "ident2": ident2, "path": rng.choice(area.paths), "good": area.packages[pair],
        "bad": area.packages[pair + 1], "noun": noun, "Noun": noun[0].upper() + noun[1:], "reason": rng.choice(REASONS),
        "area": area.name, "version": rng.choice(_VERSIONS), "command": rng.choice(area.commands),
        "n": rng.choice((2, 3, 5, 10, 15, 30)),
    }  # fmt: skip
    return template.format(**slots)


def rules(count: int, seed: int = 11) -> list[Rule]:
    """`count` distinct rules, round-robin over the areas and the kinds."""
    rng = random.Random(seed)
    seen: set[str] = set()
    found: list[Rule] = []
    n = 0
    while len(found) < count:
        area, kind = AREAS[n % len(AREAS)], KINDS[(n // len(AREAS)) % len(KINDS)]
        n += 1
        text = _fill(rng.choice(TEMPLATES[kind]), area, rng)
        if text not in seen:
            seen.add(text)
            found.append(Rule(kind, area.name, text))
    return found


TASK_TEMPLATES = (
    "add a retry to the {noun} handler in `{ident}`",
    "fix the bug where {noun} are duplicated after a timeout",
    "refactor `{ident}` so {noun} are easier to test",
    "add a new endpoint that lists {noun}",
    "why does `{ident}` fail on the staging deploy?",
    "migrate {noun} from {bad} to {good}",
    "add logging around {noun} in {path}",
    "speed up `{ident}`: p95 is too high",
    "write tests for {noun}",
    "rename `{ident}` to something clearer",
)


def tasks(count: int, seed: int = 13) -> list[tuple[str, list[str]]]:
    """`count` brief tasks over the areas, each with 0, 1 or 2 file paths."""
    rng = random.Random(seed)
    out: list[tuple[str, list[str]]] = []
    for i in range(count):
        area = AREAS[i % len(AREAS)]
        text = _fill(rng.choice(TASK_TEMPLATES), area, rng)
        out.append((text, rng.sample(area.paths, i % 3)))
    return out


_OPENERS = ("Can you {task}?", "I need you to {task}.", "Next up: {task}. Go ahead.", "Please {task} today.")
_PLANS = (
    "I'll start in {path} and look at `{ident}` first, then run `{command}`.",
    "Plan: read {path}, change `{ident}`, add a test, then run `{command}`.",
    "Looking at {path} now; `{ident}` is called from three places.",
)
_SMALL_TALK = ("Thanks, coffee first.", "Sounds good.", "Ok, one sec, meeting.", "Nice, that was quick.")
_DONE = (
    "Done: `{ident}` is updated in {path} and `{command}` passes.",
    "Finished. I changed {path} and added two tests; `{command}` is green.",
)


def sessions(count: int, seed: int = 17) -> list[tuple[str, str]]:
    """`count` (title, plain transcript) coding sessions, 8 turns each."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    for i in range(count):
        area = AREAS[i % len(AREAS)]
        task = _fill(rng.choice(TASK_TEMPLATES), area, rng).rstrip("?")
        rule = _fill(rng.choice(TEMPLATES[rng.choice(KINDS)]), area, rng)
        turns = [
            ("User", rng.choice(_OPENERS).format(task=task)),
            ("Assistant", _fill(rng.choice(_PLANS), area, rng)),
            ("User", rng.choice(_SMALL_TALK)),
            ("Assistant", f"I found the call in `{rng.choice(area.idents)}`; should I also update the docs?"),
            ("User", f"No, not the docs. One thing to remember: {rule}"),
            ("Assistant", "Understood, I'll follow that."),
            ("Assistant", _fill(rng.choice(_DONE), area, rng)),
            ("User", rng.choice(_SMALL_TALK)),
        ]
        day = 1 + i % 28
        text = f"Date: 2025-{1 + i % 12:02d}-{day:02d} 10:{i % 60:02d}\n" + "\n".join(f"{w}: {t}" for w, t in turns)
        out.append((f"session {i + 1}: {task}"[:120], text))
    return out
