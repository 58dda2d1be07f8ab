"""One plugin mechanism: a `Registry` of named factories for stores, embedders, chat models and apps.

A plugin is a function `register(registry: Registry) -> None` that adds what it brings. The
built-ins are plugins like any other, listed in `BUILTINS`; a third party's are the installed
entry points of the `forethought.plugins` group, each called with the registry as its one
argument, so a hook added later never breaks a plugin written before it. The process-wide
registry (`registry()`) is loaded once: the built-ins, then every entry point, in that order (a
plugin may replace a built-in by registering the same name). A plugin that fails to load or
raises is logged and skipped: a broken plugin must not break the product.

Plugins written for the first mechanism, a callable taking the keyword arguments
`register_embedder` and `register_app`, are still called that way.
"""

from __future__ import annotations

import inspect
import logging
import threading
from collections.abc import Callable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Literal, Protocol, TypeVar

from forethought.apps.base import App
from forethought.apps.career import APP as CAREER
from forethought.apps.generic import APP as GENERIC
from forethought.apps.project import APP as PROJECT
from forethought.apps.support import APP as SUPPORT
from forethought.embed.base import Embedder
from forethought.embed.hashing import HashingEmbedder
from forethought.errors import InvalidInput
from forethought.judge import shared_judge
from forethought.llm import factory as models
from forethought.llm.base import ChatModel
from forethought.llm.config import LLMSettings
from forethought.store.base import Store
from forethought.store.lazy import open_postgres
from forethought.store.sqlite import SQLiteStore

__all__ = [
    "BUILTINS",
    "GROUP",
    "EmbedderFactory",
    "ModelFactory",
    "Plugin",
    "Registry",
    "Seam",
    "StoreFactory",
    "load_registry",
    "model_from_settings",
    "open_store",
    "register_builtins",
    "registry",
]

log = logging.getLogger(__name__)

GROUP = "forethought.plugins"  # the entry-point group third-party plugins declare
Seam = Literal["store", "embedder", "model", "app"]


class StoreFactory(Protocol):
    """Opens a store at `path` (a file, a URL) for vectors of `dim` dimensions, creating it if it can."""

    def __call__(self, path: str | Path, /, *, dim: int) -> Store: ...


EmbedderFactory = Callable[[], Embedder]
ModelFactory = Callable[[LLMSettings], ChatModel]


class Registry:
    """Named factories for the four seams, and the apps.

    Adding a name that is already there replaces it (a plugin may override a built-in). Looking
    up a name that is not there raises `InvalidInput`, naming the known ones.
    """

    def __init__(self) -> None:
        self._stores: dict[str, StoreFactory] = {}
        self._embedders: dict[str, EmbedderFactory] = {}
        self._models: dict[str, ModelFactory] = {}
        self._apps: dict[str, App] = {}

    def add_store(self, name: str, factory: StoreFactory) -> None:
        """Register a store backend: `factory(path, *, dim)` returns an open `Store`."""
        self._stores[name] = factory

    def add_embedder(self, name: str, factory: EmbedderFactory) -> None:
        """Register an embedder: `factory()` returns a ready `Embedder` (it may load a model)."""
        self._embedders[name] = factory

    def add_model(self, name: str, factory: ModelFactory) -> None:
        """Register a chat model provider: `factory(settings)` returns a `ChatModel`."""
        self._models[name] = factory

    def add_app(self, app: App) -> None:
        """Register an app under its `name`."""
        self._apps[app.name] = app

    def store(self, name: str) -> StoreFactory:
        """The store factory called `name`; InvalidInput if there is none."""
        return _lookup("store", self._stores, name)

    def embedder(self, name: str) -> EmbedderFactory:
        """The embedder factory called `name`; InvalidInput if there is none."""
        return _lookup("embedder", self._embedders, name)

    def model(self, name: str) -> ModelFactory:
        """The chat model factory called `name`; InvalidInput if there is none."""
        return _lookup("model", self._models, name)

    def app(self, name: str) -> App:
        """The app called `name`; InvalidInput if there is none."""
        return _lookup("app", self._apps, name)

    def names(self, seam: Seam) -> list[str]:
        """The registered names of one seam, sorted; InvalidInput for an unknown seam."""
        tables: dict[str, Mapping[str, object]] = {
            "store": self._stores,
            "embedder": self._embedders,
            "model": self._models,
            "app": self._apps,
        }
        return sorted(_lookup("seam", tables, seam))


_T = TypeVar("_T")


def _lookup(what: str, table: Mapping[str, _T], name: str) -> _T:
    try:
        return table[name]
    except KeyError:
        raise InvalidInput(f"unknown {what} {name!r} (known: {', '.join(sorted(table))})") from None


Plugin = Callable[[Registry], None]


def shared_minilm() -> Embedder:
    """The process's one MiniLM: the sentence judge's. A store's vectors, the judge's sentences
    and the brief's relevance features then come from one model loaded once, and a text any of
    them embedded (a commit sentence judged, then filed as a record's quote) comes from the
    vector cache the next time."""
    return shared_judge().embedder


def register_builtins(registry: Registry) -> None:
    """The built-in stores, embedders, chat models and apps: a plugin like a third party's."""
    registry.add_store("sqlite", SQLiteStore)
    registry.add_store("postgresql", open_postgres)
    registry.add_embedder("minilm", shared_minilm)
    registry.add_embedder("hashing", HashingEmbedder)
    registry.add_model("groq", models.groq)
    registry.add_model("openai", models.openai)
    registry.add_model("openai_compatible", models.openai_compatible)
    registry.add_model("fake", models.fake)
    for app in (GENERIC, PROJECT, CAREER, SUPPORT):
        registry.add_app(app)


BUILTINS: tuple[Plugin, ...] = (register_builtins,)


def load_registry() -> Registry:
    """A new registry holding the built-ins, then every installed plugin that loads."""
    loaded = Registry()
    for builtin in BUILTINS:
        builtin(loaded)
    for entry in metadata.entry_points(group=GROUP):
        try:
            _call(entry.load(), loaded)
        except Exception:  # a broken plugin must not break the product; say which one
            log.exception("plugin %s failed to load", entry.name)
    return loaded


def _call(plugin: Callable[..., object], registry: Registry) -> None:
    """Call `plugin` with the registry; a plugin of the first mechanism (parameters named
    `register_embedder`/`register_app`, or only `**kwargs`) is called as it always was."""
    try:
        parameters = list(inspect.signature(plugin).parameters.values())
    except (TypeError, ValueError):  # no signature to read: call it the current way
        parameters = []
    legacy = {"register_embedder": registry.add_embedder, "register_app": registry.add_app}
    keywords_only = bool(parameters) and all(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
    if keywords_only or any(p.name in legacy for p in parameters):
        plugin(**legacy)
    else:
        plugin(registry)


_default: Registry | None = None
_lock = threading.Lock()


def registry() -> Registry:
    """The process-wide registry, loaded on first use (once, even from several threads)."""
    global _default
    with _lock:
        if _default is None:
            _default = load_registry()
        return _default


def open_store(name: str, path: str | Path, *, dim: int) -> Store:
    """Open the store backend `name` at `path` for vectors of `dim` dimensions."""
    return registry().store(name)(path, dim=dim)


def model_from_settings(settings: LLMSettings) -> ChatModel | None:
    """The chat model `settings` describe, or None when the provider is "none" (heuristic mode)."""
    if settings.provider == "none":
        return None
    return registry().model(settings.provider)(settings)
