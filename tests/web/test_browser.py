"""The workspace in a real browser: Debian's headless Chromium against a real server.

One server and one browser per module (per xdist worker); each test uses its own subject, so
tests do not depend on each other's order. A machine without Chromium fails these tests (it
never skips them): `make browser` installs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ready

from forethought import Forethought
from forethought.embed.hashing import HashingEmbedder
from forethought.server.demo import DEMO_WORKSPACE, seed_demo
from tests.web.live import LiveServer, chromium, live_server, log_in, missing_browser, send_message, wait


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("web")) / "memory.db"
    with Forethought.open(db, embedder=HashingEmbedder()) as memory:
        seed_demo(memory)
        with live_server(memory) as live:
            yield live


@pytest.fixture(scope="module")
def key(server: LiveServer) -> str:
    return server.memory.create_api_key(DEMO_WORKSPACE, name="browser")[1]


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    problem = missing_browser()
    if problem:
        pytest.fail(problem)
    with chromium() as browser:
        yield browser


def _text(driver: WebDriver, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def test_logging_in_and_out(driver: WebDriver, server: LiveServer, key: str) -> None:
    driver.delete_all_cookies()
    driver.get(server.url + "/")
    wait(driver).until(ready.visibility_of_element_located((By.ID, "key"))).send_keys(key)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(driver).until(ready.visibility_of_element_located((By.ID, "open-subject")))
    assert "maya" in driver.find_element(By.CLASS_NAME, "grid").text
    assert _text(driver, "mode-badge") == "heuristic mode"
    assert key not in driver.current_url
    driver.find_element(By.ID, "logout").click()
    wait(driver).until(ready.visibility_of_element_located((By.ID, "key")))
    driver.get(server.url + "/web")
    assert driver.current_url.startswith(server.url + "/web/login")


def test_a_chat_turn_shows_the_recalled_memory_in_the_panel(driver: WebDriver, server: LiveServer, key: str) -> None:
    log_in(driver, server, key, "/web/apps/career/maya/chat")
    send_message(driver, "Which internships should I apply to this summer?")
    used = wait(driver).until(ready.visibility_of_element_located((By.ID, "used")))
    assert "Maya strongly prefers remote work." in used.text
    assert "career rule" in used.text  # the reason it applies
    assert "recall" in _text(driver, "memory-panel")


def test_an_imported_candidate_approved_in_the_inbox_is_used_in_the_next_turn(
    driver: WebDriver, server: LiveServer, key: str
) -> None:
    log_in(driver, server, key, "/web/apps/project/ledger/import")
    driver.find_element(By.NAME, "text").send_keys(
        "User: We decided to use Postgres for the ledger service.\nAssistant: Noted, Postgres it is."
    )
    driver.find_element(By.ID, "import-submit").click()
    # The page follows the import over server-sent events until the bar is full.
    wait(driver).until(lambda d: d.find_element(By.ID, "import-bar").get_attribute("value") == "100")
    assert _text(driver, "import-percent") == "100%"
    assert "1 to review" in _text(driver, "import-log")
    wait(driver).until(ready.element_to_be_clickable((By.CSS_SELECTOR, "#import-done a"))).click()

    card = wait(driver).until(ready.visibility_of_element_located((By.CSS_SELECTOR, "article.candidate")))
    handle = card.get_attribute("data-handle")
    assert card.find_element(By.TAG_NAME, "mark").text == "We decided to use Postgres for the ledger service."
    card.find_element(By.CSS_SELECTOR, "button[name=approve]").click()
    wait(driver).until(ready.visibility_of_element_located((By.ID, "inbox-empty")))
    assert f"Approved {handle}" in driver.find_element(By.CLASS_NAME, "notice").text

    driver.find_element(By.LINK_TEXT, "Chat").click()
    send_message(driver, "Which database should the ledger service use?")
    used = wait(driver).until(ready.visibility_of_element_located((By.ID, "used")))
    assert handle is not None and handle in used.text
    assert "We decided to use Postgres for the ledger service." in used.text


def test_superseding_a_record_changes_the_brief(driver: WebDriver, server: LiveServer, key: str) -> None:
    task = "/web/apps/project/tillpoint/brief?task=pick+the+database+for+the+ledger+service"
    log_in(driver, server, key, task)
    used = wait(driver).until(ready.visibility_of_element_located((By.ID, "brief-used")))
    assert "Use Postgres for the ledger service." in used.text
    used.find_element(By.CSS_SELECTOR, "a.handle").click()  # the record's page

    statement = wait(driver).until(ready.visibility_of_element_located((By.CSS_SELECTOR, "#supersede textarea")))
    statement.clear()
    statement.send_keys("Use CockroachDB for the ledger service.")
    driver.find_element(By.CSS_SELECTOR, "#supersede input[name=reason]").send_keys("multi-region writes")
    driver.find_element(By.CSS_SELECTOR, "#supersede button.primary").click()
    wait(driver).until(lambda d: "Superseded" in d.find_element(By.CLASS_NAME, "notice").text)
    history = _text(driver, "history")
    assert "Use Postgres" in history and "Use CockroachDB" in history

    driver.get(server.url + task)
    used = wait(driver).until(ready.visibility_of_element_located((By.ID, "brief-used")))
    assert "Use CockroachDB for the ledger service." in used.text
    assert "Use Postgres" not in used.text
