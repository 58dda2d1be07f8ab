"""A project's overview page: the rules in force by area, the inbox, the stale queue, the latest
changes, the source documents, the organisation's rules, and the links to every project page."""

from __future__ import annotations

from datetime import UTC, datetime

from forethought import Forethought, Scope, Status
from forethought.projects.documents import file_texts
from forethought.projects.org import ORG
from tests.server.test_project_routes import ADR_1, ADR_2
from tests.web.conftest import Browser, MakeBrowser

WHARF = "/web/apps/project/wharf"
SCRIPT = "<script>alert('rule')</script>"


def _wharf(memory: Forethought, workspace: str = "acme") -> Scope:
    return memory.scope("project", "wharf", workspace=workspace)


def _section(text: str, name: str) -> str:
    start = f'id="overview-{name}"'
    assert start in text, text
    return text.split(start, 1)[1].split("</section>", 1)[0]


def test_the_overview_counts_rules_by_area_with_the_newest(alice: Browser, memory: Forethought) -> None:
    scope = _wharf(memory)
    for text, area, day in [("Use Postgres for the ledger service.", "database", 1),
                            ("Run the migrations with alembic.", "database", 20),
                            ("Deploy on Tuesdays only.", "deploys", 5)]:  # fmt: skip
        memory.retain(scope, text, kind="decision", attributes={"area": area},
                      occurred_at=datetime(2025, 3, day, tzinfo=UTC))  # fmt: skip
    memory.retain(scope, "Maybe try SQLite.", kind="decision", status=Status.CANDIDATE)
    page = alice.get(f"{WHARF}/overview")
    assert page.status_code == 200
    assert '<span class="count">3</span>' in _section(page.text, "rules")
    areas = _section(page.text, "areas")
    database = areas.split("<strong>database</strong>", 1)[1].split("</li>", 1)[0]
    assert '<span class="count">2</span>' in database and "alembic" in database and "Postgres" not in database
    assert areas.index("database") < areas.index("deploys")  # most rules first
    inbox = _section(page.text, "inbox")
    assert '<span class="count">1</span>' in inbox and f'href="{WHARF}/inbox"' in inbox
    assert "Maybe try SQLite" not in page.text  # a candidate is counted, never shown as a rule


def test_the_overview_shows_the_stale_count_and_the_latest_supersession(alice: Browser, memory: Forethought) -> None:
    scope = _wharf(memory)
    old = memory.retain(scope, "Use Postgres for the ledger service.", kind="decision",
                        occurred_at=datetime(2025, 1, 10, tzinfo=UTC)).record  # fmt: skip
    new = memory.supersede(scope, old.id, "Use CockroachDB for the ledger service.",
                           occurred_at=datetime(2025, 6, 1, tzinfo=UTC))  # fmt: skip
    kept = memory.retain(scope, "Call `charge()` in src/payments/gateway.py.", kind="decision").record
    memory.note_review(scope, kept.id, "stale", reason="evidence gone")
    page = alice.get(f"{WHARF}/overview").text
    stale = _section(page, "stale")
    assert '<span class="count">1</span>' in stale and f'href="{WHARF}/stale"' in stale
    changes = _section(page, "changes")
    superseded = changes.split("change-superseded", 1)[1].split("</li>", 1)[0]
    assert "Postgres" in superseded and "replaced by" in superseded and new.handle in superseded
    assert changes.index("charge()") < changes.index("change-superseded")  # newest first


def test_the_overview_lists_the_documents_filed_and_the_organisation_rules(alice: Browser, memory: Forethought) -> None:
    file_texts(memory, _wharf(memory), [("docs/adr/0001-pg.md", ADR_1), ("docs/adr/0002-crdb.md", ADR_2)])
    org = memory.scope("project", ORG, workspace="acme")
    memory.retain(org, "Never log a customer's card number.", kind="decision")
    page = alice.get(f"{WHARF}/overview").text
    documents = _section(page, "documents")
    assert "Use CockroachDB for the ledger" in documents and "Use Postgres for the ledger" in documents
    assert '<span class="count">1</span>' in _section(page, "org") and "Inherited" in _section(page, "org")


def test_the_overview_links_every_project_page_and_is_in_the_navigation(alice: Browser) -> None:
    page = alice.get(f"{WHARF}/overview").text
    pages = page.split('id="overview-pages"', 1)[1].split("</nav>", 1)[0]
    for slug in ("brief", "check", "rulebook", "stale", "import"):
        assert f'href="{WHARF}/{slug}"' in pages
    rulebook = alice.get(f"{WHARF}/rulebook").text
    assert f'href="{WHARF}/overview"' in rulebook.split('aria-label="Workspace"', 1)[1].split("</nav>", 1)[0]
    # another app's subject has no overview, and no link to one
    chat = alice.get("/web/apps/generic/notes/chat").text
    assert 'href="/web/apps/generic/notes/inbox"' in chat and 'href="/web/apps/generic/notes/overview"' not in chat
    assert alice.get("/web/apps/generic/notes/overview").status_code == 404


def test_a_project_opens_on_its_overview(alice: Browser, memory: Forethought) -> None:
    assert alice.get("/web/open", params={"app": "project", "subject": "wharf"}).url.path == f"{WHARF}/overview"
    memory.retain(_wharf(memory), "Use Postgres for the ledger service.", kind="decision")
    picker = alice.get("/web").text
    assert f'href="{WHARF}/overview" class="subject"' in picker


def test_an_empty_project_says_what_to_do(alice: Browser) -> None:
    page = alice.get(f"{WHARF}/overview")
    assert page.status_code == 200
    assert "No rules in force yet" in _section(page.text, "areas")
    assert "Nothing to review." in _section(page.text, "inbox")
    assert "No rule file, ADR or commit filed yet" in _section(page.text, "documents")


def test_the_overview_escapes_rule_text(alice: Browser, memory: Forethought) -> None:
    memory.retain(_wharf(memory), f"Never render {SCRIPT} unescaped.", kind="decision", attributes={"area": SCRIPT})
    page = alice.get(f"{WHARF}/overview").text
    assert SCRIPT not in page and "&lt;script&gt;" in page


def test_another_workspace_sees_nothing_of_the_project(app_for: MakeBrowser, memory: Forethought) -> None:
    scope = _wharf(memory)
    canary = memory.retain(scope, "Canary: the ledger runs on Postgres 16.", kind="decision").record
    memory.note_review(scope, canary.id, "stale", reason="evidence gone")
    memory.retain(scope, "Canary candidate.", kind="decision", status=Status.CANDIDATE)
    memory.retain(memory.scope("project", ORG, workspace="acme"), "Canary org rule.", kind="decision")
    bob = app_for("globex")
    page = bob.get(f"{WHARF}/overview")
    assert page.status_code == 200 and "Canary" not in page.text
    for name in ("rules", "inbox", "stale", "org"):
        assert '<span class="count">0</span>' in _section(page.text, name)


def test_the_overview_needs_a_login(guest: Browser) -> None:
    assert guest.get(f"{WHARF}/overview").url.path == "/web/login"
