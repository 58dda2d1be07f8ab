"""One plugin mechanism: named factories for embedders and apps.

Built-ins register here through the same `register_*` functions a third party calls; other
packages can also register from the `forethought.plugins` entry-point group, whose objects are
called with this module's registry functions as keyword arguments.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import import_module, metadata
from pathlib import Path

from forethought.apps.base import App
from forethought.embed.base import Embedder
from forethought.errors import InvalidInput
from forethought.store.base import Store

__all__ = [
    "app_names",
    "embedder_names",
    "get_app",
    "load_entry_points",
    "make_embedder",
    "register_app",
    "register_embedder",
]

log = logging.getLogger(__name__)

_EMBEDDERS: dict[str, Callable[[], Embedder]] = {}
_APPS: dict[str, App] = {}
_loaded = False
# Built-in apps: modules exposing `APP`, registered exactly like a third party's would be.
BUILTIN_APPS = (
    "forethought.apps.generic",
    "forethought.apps.project",
    "forethought.apps.career",
    "forethought.apps.support",
)


def register_embedder(name: str, factory: Callable[[], Embedder]) -> None:
    _EMBEDDERS[name] = factory


def embedder_names() -> list[str]:
    load_entry_points()
    return sorted(_EMBEDDERS)


def make_embedder(name: str) -> Embedder:
    load_entry_points()
    try:
        factory = _EMBEDDERS[name]
    except KeyError:
        raise InvalidInput(f"unknown embedder {name!r} (known: {', '.join(sorted(_EMBEDDERS))})") from None
    return factory()


def open_store(name: str, path: str | Path, *, dim: int) -> Store:
    """The store backend `name` opened at `path` for vectors of `dim` dimensions."""
    if name != "sqlite":
        raise InvalidInput(f"unknown store {name!r} (known: sqlite)")
    from forethought.store.sqlite import SQLiteStore

    return SQLiteStore(path, dim=dim)


def register_app(app: App) -> None:
    _APPS[app.name] = app


def app_names() -> list[str]:
    load_entry_points()
    return sorted(_APPS)


def get_app(name: str) -> App:
    load_entry_points()
    try:
        return _APPS[name]
    except KeyError:
        raise InvalidInput(f"unknown app {name!r} (known: {', '.join(sorted(_APPS))})") from None


def load_entry_points() -> None:
    """Register the built-ins, then every installed `forethought.plugins` entry point (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    _register_builtins()
    for entry in metadata.entry_points(group="forethought.plugins"):
        try:
            entry.load()(register_embedder=register_embedder, register_app=register_app)
        except Exception:  # a broken plugin must not break the product; say which one
            log.exception("plugin %s failed to load", entry.name)


def _register_builtins() -> None:
    from forethought.embed.hashing import HashingEmbedder
    from forethought.embed.onnx_minilm import MiniLMEmbedder

    register_embedder("minilm", MiniLMEmbedder)
    register_embedder("hashing", HashingEmbedder)
    for module in BUILTIN_APPS:
        register_app(import_module(module).APP)
