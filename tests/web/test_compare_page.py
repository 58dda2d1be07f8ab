"""A project's compare page against the fake OpenAI server on loopback: the form runs compare, the
finished run is kept and opens on its own page (rounds, spread, fairness, escaped answers), earlier
runs are listed newest first, and without a model the page says so and runs nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from forethought import Forethought, Scope
from forethought.domain import CheckPatterns
from forethought.llm import OpenAICompatibleModel
from forethought.llm.fake_server import Reply, Status
from forethought.projects.compare import NO_MODEL
from forethought.projects.compare_runs import list_runs
from tests.projects.test_compare import Script, fake_coder
from tests.web.conftest import Browser, MakeBrowser

SHOP = "/web/apps/project/shop"
TASK = "Write a function that logs each order total."
BREAKS = "```python\ndef log_totals(orders):\n    print('<b>total</b>', orders)\n```"


def _shop(memory: Forethought, workspace: str = "acme") -> Scope:
    return memory.scope("project", "shop", workspace=workspace)


@pytest.fixture
def script() -> Script:
    made = Script()
    made.baseline = lambda n: Reply(BREAKS)
    return made


@pytest.fixture
def model(memory: Forethought, script: Script) -> Iterator[OpenAICompatibleModel]:
    with fake_coder(memory, script) as chat:
        yield chat


@pytest.fixture
def rule(memory: Forethought) -> str:
    return memory.retain(_shop(memory), "Log through the structured logger; never call print() in application code.",
                         kind="convention", check=CheckPatterns(forbid=(r"\bprint\(",))).record.handle  # fmt: skip


def _run(browser: Browser, task: str = TASK, *, repeat: str = "2", paths: str = "src/orders/log.py") -> object:
    return browser.post(f"{SHOP}/compare", data={"task": task, "repeat": repeat, "paths": paths})


def _between(text: str, start: str, end: str) -> str:
    assert start in text, text
    return text.split(start, 1)[1].split(end, 1)[0]


def test_without_a_model_the_page_says_so_and_runs_nothing(alice: Browser, memory: Forethought) -> None:
    page = alice.get(f"{SHOP}/compare")
    assert page.status_code == 200
    notice = _between(page.text, 'id="compare-no-model"', "</div>")
    assert "needs a language model" in notice and "FORETHOUGHT_LLM_BASE_URL" in notice
    assert 'id="compare-form"' not in page.text
    refused = _run(alice)
    assert refused.status_code == 422 and NO_MODEL in refused.text.replace("&#39;", "'")
    assert list_runs(memory, _shop(memory)) == []


def test_a_run_shows_each_round_the_spread_the_fairness_and_escaped_answers(
    alice: Browser, memory: Forethought, model: OpenAICompatibleModel, rule: str
) -> None:
    page = _run(alice)
    assert page.status_code == 200, page.text
    assert page.url.path.startswith(f"{SHOP}/compare/")
    text = page.text
    assert "1.00" in _between(text, 'id="summary-baseline"', "</section>")
    assert "0.00" in _between(text, 'id="summary-memory"', "</section>")
    assert rule in _between(text, 'id="summary-baseline"', "</section>")
    rounds = text.split('class="card round"')[1:]
    assert [r.split('id="round-', 1)[1].split('"', 1)[0] for r in rounds] == ["1", "2"]
    for one in rounds:
        with_memory = _between(one, "arm-memory", "</pre>")
        without = _between(one, "arm-baseline", "</pre>")
        assert "0 violations" in with_memory and "log.info" in with_memory
        assert "1 violation<" in without and rule in without
        assert "&lt;b&gt;total&lt;/b&gt;" in without and "<b>total</b>" not in text  # answers are text
    fairness = _between(text, 'id="run-fairness"', "</p>")
    assert "same model" in fairness and "checked blind" in fairness and "2 of 2 rounds completed" in fairness
    assert "src/orders/log.py" in _between(text, 'id="run-task"', "</section>")
    (kept,) = list_runs(memory, _shop(memory))
    assert kept.task == TASK and kept.file_paths == ["src/orders/log.py"] and kept.summary["baseline"].mean == 1.0


def test_earlier_runs_are_listed_newest_first_and_open_again(
    alice: Browser, memory: Forethought, model: OpenAICompatibleModel, rule: str
) -> None:
    first = _run(alice, "Write a function that logs each order total.", repeat="1")
    second = _run(alice, "Write a function that logs each refund total.", repeat="1")
    listed = _between(alice.get(f"{SHOP}/compare").text, 'id="compare-runs"', "</section>")
    assert listed.index("refund") < listed.index("order total")  # newest first
    for done in (first, second):
        assert f'href="{done.url.path}"' in listed
    again = alice.get(first.url.path)
    assert again.status_code == 200 and "order total" in _between(again.text, 'id="run-task"', "</section>")


def test_the_run_list_pages_through_older_runs(
    alice: Browser, memory: Forethought, model: OpenAICompatibleModel, rule: str
) -> None:
    for n in range(21):
        assert _run(alice, f"Write a function that logs order total number {n}.", repeat="1").status_code == 200
    page = alice.get(f"{SHOP}/compare").text
    first = _between(page, 'id="compare-runs"', "</section>")
    assert "number 20." in first and "number 1." in first and "number 0." not in first  # the newest 20
    link = _between(page, 'id="compare-older" href="', '"')
    rest = _between(alice.get(link.replace("&amp;", "&")).text, 'id="compare-runs"', "</section>")
    assert "number 0." in rest and "number 1." not in rest and 'id="compare-older"' not in rest


def test_a_run_whose_every_round_failed_is_reported_and_not_kept(
    alice: Browser, memory: Forethought, model: OpenAICompatibleModel, script: Script, rule: str
) -> None:
    script.memory = lambda n: Status(400, message="scripted refusal")
    page = _run(alice)
    assert page.status_code == 502
    assert "every one of the 2 round(s) failed" in _between(page.text, 'id="compare-error"', "</div>")
    assert list_runs(memory, _shop(memory)) == []


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"task": "   "}, "task"),
        ({"task": TASK, "repeat": "6"}, "repeat"),
        ({"task": TASK, "repeat": "0"}, "repeat"),
        ({"task": TASK, "paths": "\n".join(f"src/{n}.py" for n in range(21))}, "file_paths"),
        ({"task": "x" * 4001}, "task"),
    ],
)
def test_bad_input_comes_back_as_a_message(
    alice: Browser, memory: Forethought, model: OpenAICompatibleModel, data: dict[str, str], says: str
) -> None:
    page = alice.post(f"{SHOP}/compare", data=data)
    assert page.status_code == 422 and says in page.text
    assert "Traceback" not in page.text
    assert list_runs(memory, _shop(memory)) == []


def test_the_form_needs_the_csrf_token_and_a_project(
    alice: Browser, memory: Forethought, model: OpenAICompatibleModel
) -> None:
    assert alice.post(f"{SHOP}/compare", data={"task": TASK, "csrf": "forged"}).status_code == 403
    assert alice.get("/web/apps/generic/notes/compare").status_code == 404
    assert alice.post("/web/apps/generic/notes/compare", data={"task": TASK}).status_code == 404
    assert list_runs(memory, _shop(memory)) == []


def test_another_workspace_never_sees_a_run_and_a_turns_trace_is_no_run(
    alice: Browser, app_for: MakeBrowser, memory: Forethought, model: OpenAICompatibleModel, rule: str
) -> None:
    done = _run(alice, "Canary task: log each order total.", repeat="1")
    run_path = done.url.path
    bob = app_for("globex")
    assert bob.get(run_path).status_code == 404
    assert "Canary" not in bob.get(f"{SHOP}/compare").text
    # the runs sit beside the turns' traces, never among them
    turn = memory.turn(_shop(memory), "Which logger do we use?")
    assert alice.get(f"{SHOP}/compare/{turn.trace_id}").status_code == 404
    activity = alice.get(f"{SHOP}/activity")
    assert activity.status_code == 200 and "Canary task" not in activity.text
    assert [t.id for t in memory.list_traces(_shop(memory))] == [turn.trace_id]
    assert alice.get(f"{SHOP}/activity/traces/{run_path.rsplit('/', 1)[1]}").status_code == 404


def test_erasing_the_project_erases_its_runs(
    alice: Browser, memory: Forethought, model: OpenAICompatibleModel, rule: str
) -> None:
    run_path = _run(alice, repeat="1").url.path
    assert len(list_runs(memory, _shop(memory))) == 1
    memory.erase_space(_shop(memory))
    assert list_runs(memory, _shop(memory)) == []
    memory.retain(_shop(memory), "Use Postgres for the ledger service.", kind="decision")  # the space again
    assert list_runs(memory, _shop(memory)) == []
    assert alice.get(run_path).status_code == 404


def test_the_compare_page_is_in_the_project_navigation(alice: Browser) -> None:
    nav = _between(alice.get(f"{SHOP}/overview").text, 'aria-label="Workspace"', "</nav>")
    assert f'href="{SHOP}/compare"' in nav


def test_a_secret_in_the_task_is_scrubbed_before_the_run_is_kept(
    alice: Browser, memory: Forethought, model: OpenAICompatibleModel, rule: str
) -> None:
    secret = "sk-proj-3hX9qPz7LmN2vB8cR4tY6wK1"
    page = _run(alice, f"Log each order total; the deploy key is {secret}.", repeat="1")
    assert page.status_code == 200 and secret not in page.text and "[REDACTED:" in page.text
    (kept,) = list_runs(memory, _shop(memory))
    assert secret not in kept.task and "[REDACTED:" in kept.task
