"""The app hooks, the same names in every app: extract, areas, failed_kinds, identity and demo; and
the generic stages ask them instead of naming any app's vocabulary."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from importlib import import_module
from pathlib import Path
from typing import ClassVar

import pytest

import forethought
from forethought import Forethought
from forethought.apps.areas import WORK_AREAS, Area
from forethought.apps.base import FAILED_ATTEMPT_KINDS, App, Failed, KindSpec
from forethought.apps.demo import Demo, DemoMemory
from forethought.apps.generic import GenericApp
from forethought.domain import Record, Status
from forethought.domain.times import utcnow
from forethought.pipeline.brief import heuristic_applicability
from forethought.pipeline.check import check_draft, failed_action
from forethought.plugins import Registry, register_builtins, registry
from forethought.server.demo import DEMO_WORKSPACE, seed_demo
from tests.apps.conftest import session

BUILTIN = ("career", "generic", "project", "support")
PIPELINE = Path(forethought.__file__).parent / "pipeline"
# One sentence each app's heuristic extractor keeps, and what it keeps.
SAID = {
    "generic": ("Remember that the staging database is read-only.", ["note"]),
    "career": ("I know Python and SQL.", ["skill", "skill"]),
    "project": ("We decided to use Postgres for the ledger service.", ["decision"]),
    "support": (
        "My headphones keep disconnecting. I restarted Bluetooth but it did not help.",
        ["problem_reported", "action_attempted", "outcome_reported"],
    ),
}


def _record(kind: str, statement: str, **attributes: str) -> Record:
    now = utcnow()
    return Record(id=f"r-{kind}", space_id="s", handle="h1234567", lineage_id=f"r-{kind}", kind=kind,
                  statement=statement, attributes=attributes, status=Status.ACTIVE, occurred_at=now,
                  recorded_at=now)  # fmt: skip


# -- extract ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN)
def test_extract_is_the_one_name_of_every_apps_heuristic_extractor(name: str) -> None:
    app = registry().app(name)
    text, kinds = SAID[name]
    found = app.extract(session(("user", text)))
    assert [c.kind for c in found] == kinds
    if name != "generic":  # a package app keeps its extractor in `<app>/extract.py`, named `extract`
        module = import_module(f"forethought.apps.{name}.extract")
        assert module.__all__ == ["extract"]
        assert module.extract(session(("user", text))) == found


# -- areas --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN)
def test_every_builtin_app_keeps_the_same_twelve_areas(name: str) -> None:
    app = registry().app(name)
    assert app.areas == WORK_AREAS
    assert [a.name for a in app.areas] == ["auth", "ui", "database", "payments", "deployment", "testing", "logging",
                                           "api", "caching", "connectivity", "audio", "career"]  # fmt: skip


class KitchenApp(GenericApp):
    name = "kitchen"
    areas: ClassVar[tuple[Area, ...]] = (Area(name="kitchen", words=("oven", "stove", "pan")),)


def test_the_brief_weighs_the_apps_own_areas() -> None:
    record = _record("note", "The stove must be cooled before cleaning.")
    mine = heuristic_applicability("Scrub the oven", record, areas=KitchenApp.areas)
    assert mine.applies and mine.reason == "both concern kitchen (oven, stove)"
    assert not heuristic_applicability("Scrub the oven", record, areas=GenericApp.areas).applies


# -- failed_kinds -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN)
def test_every_builtin_app_counts_the_failed_attempt_kinds(name: str) -> None:
    # A space of any app may hold them (the façade stores any kind): the bench's career and
    # support spaces hold failed approaches, the generic app's tests check one.
    assert dict(registry().app(name).failed_kinds) == {
        "failed_approach": Failed.ALWAYS,
        "outcome_reported": Failed.WHEN_ATTRIBUTES_SAY,
        "action_attempted": Failed.WHEN_ATTRIBUTES_SAY,
    }
    assert registry().app(name).failed_kinds is FAILED_ATTEMPT_KINDS


class OvenApp(GenericApp):
    name = "oven"
    failed_kinds: ClassVar[Mapping[str, Failed]] = {"burnt_dish": Failed.ALWAYS, "bake": Failed.WHEN_ATTRIBUTES_SAY}


def test_check_looks_for_the_apps_own_failed_kinds(memory: Forethought) -> None:
    burnt = _record("burnt_dish", "Preheating the oven twice burnt the crust.", action="preheat the oven twice")
    assert failed_action(burnt, OvenApp.failed_kinds) == "preheat the oven twice"
    assert failed_action(burnt, FAILED_ATTEMPT_KINDS) is None
    baked = _record("bake", "Baking on the top shelf.", action="bake on the top shelf", outcome="failed")
    assert failed_action(baked, OvenApp.failed_kinds) == "bake on the top shelf"
    assert failed_action(_record("bake", "Baking low.", outcome="worked"), OvenApp.failed_kinds) is None
    draft = "You should preheat the oven twice."
    report = check_draft(memory.memory, memory.scope(OvenApp(), "cook"), draft, records=[burnt])
    assert [(v.source, v.record_id) for v in report.violations] == [("action", burnt.id)]
    assert check_draft(memory.memory, memory.scope(GenericApp(), "cook"), draft, records=[burnt]).violations == []


# -- identity -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN)
def test_each_kinds_identity_names_attributes_of_that_kind(name: str) -> None:
    for kind, spec in registry().app(name).kinds.items():
        assert spec.name == kind
        assert set(spec.identity) <= set(spec.attributes.model_fields), f"{name}.{kind}: {spec.identity}"


def test_the_career_application_is_identified_by_company_and_role() -> None:
    assert registry().app("career").kinds["application"].identity == ("company", "role")


# -- demo ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "count"), [("career", 5), ("generic", 1), ("project", 17), ("support", 3)])
def test_each_apps_demo_memories_are_of_its_own_kinds(name: str, count: int) -> None:
    app = registry().app(name)
    memories = app.demo().memories
    assert len(memories) == count
    for item in memories:
        spec = app.kinds[item.kind]
        spec.attributes.model_validate(item.attributes or {})  # the kind's attribute model takes them
        assert item.external_id, "seeding twice must create nothing: every demo memory has an external id"


def test_the_demo_tour_runs_on_the_project_apps_session() -> None:
    demo = registry().app("project").demo()
    assert demo.session is not None and demo.session.subject == "tillpoint"
    assert len(demo.tour) == 6 and all(m.kind in registry().app("project").kinds for m in demo.tour)
    assert all(registry().app(name).demo().session is None for name in ("career", "generic", "support"))


def test_an_app_without_demo_data_has_an_empty_demo() -> None:
    class Bare(GenericApp):
        name = "bare"

    assert App.demo(Bare()) == Demo() and Demo().memories == ()


class GardenApp(GenericApp):
    name = "garden"
    subject_type = "garden"
    kinds: ClassVar[Mapping[str, KindSpec]] = GenericApp.kinds

    def demo(self) -> Demo:
        return Demo(memories=(DemoMemory(subject="plot-7", kind="note", text="Tomatoes need staking by June.",
                                         occurred_at="2026-05-01", external_id="plot-7-tomatoes"),))  # fmt: skip


@pytest.fixture
def with_garden(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    custom = Registry()
    register_builtins(custom)
    custom.add_app(GardenApp())
    monkeypatch.setattr("forethought.plugins._default", custom)
    yield


def test_serve_demo_seeds_every_apps_demo_hook_once(memory: Forethought, with_garden: None) -> None:
    assert seed_demo(memory) == 13 + 14 + 7 and seed_demo(memory) == 0  # memories, then documents' records
    spaces = memory.list_spaces(DEMO_WORKSPACE)
    # Built-ins in the order they were always seeded, then the plugin's app.
    assert [(s.key.subject_type, s.key.subject_id) for s in spaces] == [
        ("student", "maya"), ("customer", "acme-corp"), ("project", "tillpoint"), ("project", "storefront"),
        ("project", "storefront-legacy"), ("generic", "me"), ("garden", "plot-7"),
    ]  # fmt: skip


# -- the generic stages name no app's vocabulary ------------------------------------------------


def _builtin_kinds() -> dict[str, str]:
    return {kind: name for name in BUILTIN for kind in registry().app(name).kinds}


def test_the_pipeline_names_no_apps_kinds() -> None:
    kinds = _builtin_kinds()
    assert {"failed_approach", "outcome_reported", "action_attempted", "application", "note"} <= kinds.keys()
    alternatives = "|".join(map(re.escape, kinds))
    quoted = re.compile(rf"""["'`]({alternatives})["'`]""")
    found: list[str] = []
    for path in sorted(PIPELINE.rglob("*.py")):
        source = path.read_text("utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in kinds:
                found.append(f"{path.name}:{node.lineno}: {node.value!r} ({kinds[node.value]} kind)")
        found += [f"{path.name}: {m.group(0)} (quoted)" for m in quoted.finditer(source)]
    assert found == []
