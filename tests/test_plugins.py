"""The plugin registry: built-ins through the plugin path, third-party plugins of every seam, the
first mechanism's plugins, broken plugins skipped, unknown names refused, the documented example."""

from __future__ import annotations

import logging
import re
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from forethought import plugins
from forethought.apps.base import App, KindSpec
from forethought.apps.generic import GenericApp
from forethought.domain import Role, Session, Turn
from forethought.domain.candidates import Candidate
from forethought.domain.times import utcnow
from forethought.embed.base import Embedder, Vectors
from forethought.embed.hashing import HashingEmbedder
from forethought.embed.onnx_minilm import MiniLMEmbedder
from forethought.errors import InvalidInput
from forethought.judge import shared_judge
from forethought.llm import FakeChatModel, LLMSettings
from forethought.llm.base import ChatModel
from forethought.plugins import GROUP, Registry, load_registry, model_from_settings, open_store, registry
from forethought.store.base import Store
from forethought.store.sqlite import SQLiteStore

DOCS = Path(__file__).resolve().parents[1] / "docs" / "plugins.md"
BUILTIN_NAMES = {
    "store": ["postgresql", "sqlite"],
    "embedder": ["hashing", "minilm"],
    "model": ["fake", "groq", "openai", "openai_compatible"],
    "app": ["career", "generic", "project", "support"],
}


# -- plugins the entry points below point at ----------------------------------------------------


class ThirdApp(GenericApp):
    name = "third"
    title = "A third party's app"
    kinds: ClassVar[dict[str, KindSpec]] = dict(GenericApp.kinds)


class OldApp(GenericApp):
    name = "old"
    title = "An app of a plugin written for the first mechanism"


class ConstantEmbedder(Embedder):
    name, dim = "constant-3", 3

    def embed(self, texts: Sequence[str]) -> Vectors:
        return np.tile(np.array([1.0, 0.0, 0.0], dtype=np.float32), (len(texts), 1))


def memory_store(path: str | Path, *, dim: int) -> Store:
    return SQLiteStore(":memory:", dim=dim)


def echo_model(settings: LLMSettings) -> ChatModel:
    return FakeChatModel(default="echo", name=f"echo:{settings.resolved_model}")


def adds_everything(registry: Registry) -> None:
    registry.add_store("memory", memory_store)
    registry.add_embedder("constant", ConstantEmbedder)
    registry.add_model("echo", echo_model)
    registry.add_app(ThirdApp())


def old_style(*, register_embedder: Callable[..., None], register_app: Callable[[App], None]) -> None:
    register_app(OldApp())


def raises(registry: Registry) -> None:
    raise RuntimeError("this plugin is broken")


def _entry(name: str, target: str) -> metadata.EntryPoint:
    return metadata.EntryPoint(name=name, value=target, group=GROUP)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[str]]:
    """Install entry points for the duration of a test: `installed(entry, ...)`; returns the
    groups asked for, so a test can see that only the plugin group was read."""
    asked: list[str] = []

    def install(*entries: metadata.EntryPoint) -> list[str]:
        def entry_points(*, group: str) -> list[metadata.EntryPoint]:
            asked.append(group)
            return [e for e in entries if e.group == group]

        monkeypatch.setattr(metadata, "entry_points", entry_points)
        return asked

    return install


@pytest.fixture
def fresh_default(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process-wide registry, unloaded for this test and restored after it."""
    monkeypatch.setattr(plugins, "_default", None)
    yield


# -- the built-ins ------------------------------------------------------------------------------


def test_the_builtins_register_through_the_same_path_a_plugin_uses(installed: Callable[..., list[str]]) -> None:
    asked = installed()
    loaded = load_registry()
    assert {seam: loaded.names(seam) for seam in BUILTIN_NAMES} == BUILTIN_NAMES
    assert asked == [GROUP]
    # Each builtin is a plain `register(registry)`, exactly a third party's shape.
    by_hand = Registry()
    for builtin in plugins.BUILTINS:
        builtin(by_hand)
    assert {seam: by_hand.names(seam) for seam in BUILTIN_NAMES} == BUILTIN_NAMES
    assert plugins.register_builtins in plugins.BUILTINS


def test_the_builtin_factories_build_what_they_name(tmp_path: Path) -> None:
    loaded = registry()
    assert loaded.embedder("hashing")().name == HashingEmbedder().name
    store = open_store("sqlite", tmp_path / "s.db", dim=8)
    try:
        assert isinstance(store, SQLiteStore) and (tmp_path / "s.db").exists()
    finally:
        store.close()
    fake = loaded.model("fake")(LLMSettings())
    assert isinstance(fake, FakeChatModel) and fake.name == "fake"
    assert loaded.app("career").name == "career"


def test_minilm_is_one_instance_per_process_shared_with_the_sentence_judge() -> None:
    made = registry().embedder("minilm")()
    assert isinstance(made, MiniLMEmbedder)
    assert made is registry().embedder("minilm")() is shared_judge().embedder  # one model loaded, one vector cache


def test_model_from_settings_goes_through_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    assert model_from_settings(LLMSettings()) is None  # provider "none": the heuristic mode
    built: list[str] = []

    def groq(settings: LLMSettings) -> ChatModel:
        built.append(settings.resolved_model)
        return FakeChatModel(name="g")

    custom = Registry()
    custom.add_model("groq", groq)
    monkeypatch.setattr(plugins, "_default", custom)
    model = model_from_settings(LLMSettings(provider="groq", api_key="gsk-test", model="m1"))
    assert isinstance(model, FakeChatModel) and model.name == "g" and built == ["m1"]


def test_the_default_registry_is_loaded_once(installed: Callable[..., list[str]], fresh_default: None) -> None:
    asked = installed(_entry("everything", f"{__name__}:adds_everything"))
    first = registry()
    assert registry() is first and asked == [GROUP]
    assert "third" in first.names("app")


# -- third-party plugins ------------------------------------------------------------------------


def test_a_plugin_adds_one_of_each_kind(installed: Callable[..., list[str]], tmp_path: Path) -> None:
    installed(_entry("everything", f"{__name__}:adds_everything"))
    loaded = load_registry()
    assert isinstance(loaded.app("third"), ThirdApp)
    assert loaded.embedder("constant")().embed(["a", "b"]).shape == (2, 3)
    model = loaded.model("echo")(LLMSettings())
    assert model.name == "echo:local" and model.chat([]).text == "echo"
    store = loaded.store("memory")(tmp_path / "unused.db", dim=3)
    try:
        assert isinstance(store, SQLiteStore) and not (tmp_path / "unused.db").exists()
    finally:
        store.close()
    assert loaded.names("app") == ["career", "generic", "project", "support", "third"]


def replaces_hashing(registry: Registry) -> None:
    registry.add_embedder("hashing", ConstantEmbedder)


def test_a_plugin_may_replace_a_builtin(installed: Callable[..., list[str]]) -> None:
    installed(_entry("replacing", f"{__name__}:replaces_hashing"))
    assert load_registry().embedder("hashing") is ConstantEmbedder


def test_a_plugin_of_the_first_mechanism_that_only_adds_an_app_still_works(
    installed: Callable[..., list[str]],
) -> None:
    installed(_entry("old", f"{__name__}:old_style"))
    loaded = load_registry()
    assert isinstance(loaded.app("old"), OldApp)
    assert loaded.names("embedder") == BUILTIN_NAMES["embedder"]


def test_broken_plugins_are_logged_and_skipped(
    installed: Callable[..., list[str]], caplog: pytest.LogCaptureFixture
) -> None:
    installed(
        _entry("missing", "no_such_module_anywhere:register"),
        _entry("raising", f"{__name__}:raises"),
        _entry("everything", f"{__name__}:adds_everything"),
    )
    with caplog.at_level(logging.ERROR, logger="forethought.plugins"):
        loaded = load_registry()
    assert loaded.names("app") == ["career", "generic", "project", "support", "third"]
    failed = [r.getMessage() for r in caplog.records]
    assert failed == ["plugin missing failed to load", "plugin raising failed to load"]
    assert all(r.exc_info is not None for r in caplog.records)  # with the traceback


# -- unknown names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lookup", "message"),
    [
        (lambda r: r.store("postgres"), "unknown store 'postgres' (known: postgresql, sqlite)"),
        (lambda r: r.embedder("bert"), "unknown embedder 'bert' (known: hashing, minilm)"),
        (lambda r: r.model("claude"), "unknown model 'claude' (known: fake, groq, openai, openai_compatible)"),
        (lambda r: r.app("crm"), "unknown app 'crm' (known: career, generic, project, support)"),
        (lambda r: r.names("widget"), "unknown seam 'widget' (known: app, embedder, model, store)"),
    ],
)
def test_an_unknown_name_is_refused_naming_the_known_ones(lookup: Callable[[Registry], Any], message: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape(message)):
        lookup(registry())


def test_open_store_refuses_an_unknown_backend(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="unknown store 'postgres'"):
        open_store("postgres", tmp_path / "x.db", dim=8)
    assert not (tmp_path / "x.db").exists()


# -- the documented example ---------------------------------------------------------------------


def _documented(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOCS.read_text("utf-8"), flags=re.S)


def test_the_documented_plugin_works_through_its_documented_entry_point(
    installed: Callable[..., list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (code,) = _documented("python")
    (stanza,) = _documented("toml")
    assert stanza.startswith(f'[project.entry-points."{GROUP}"]')
    name, target = (part.strip().strip('"') for part in stanza.splitlines()[1].split("="))
    package, module = types.ModuleType("forethought_recipes"), types.ModuleType("forethought_recipes.plugin")
    exec(compile(code, str(DOCS), "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, "forethought_recipes", package)
    monkeypatch.setitem(sys.modules, "forethought_recipes.plugin", module)
    installed(_entry(name, target))
    loaded = load_registry()

    app = loaded.app("recipes")
    assert app.kinds["dislike"].identity == ("ingredient",)
    turn = Turn(index=0, role=Role.USER, text="I hate coriander.")
    found = app.extract(Session(id="s", space_id="x", title="t", created_at=utcnow(), turns=(turn,)))
    assert [(c.kind, c.statement, c.attributes) for c in found] == [
        ("dislike", "The cook hates coriander.", {"ingredient": "coriander"})
    ]
    assert all(isinstance(c, Candidate) for c in found)
    vectors = loaded.embedder("letters")().embed(["abc", "cab", "xyz"])
    assert vectors.shape == (3, 26) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert float(vectors[0] @ vectors[1]) == pytest.approx(1.0) and float(vectors[0] @ vectors[2]) < 0.1
