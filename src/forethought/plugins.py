"""One plugin mechanism: named factories for embedders and stores.

Built-ins register here through the same `register_*` functions a third party calls; other
packages can also register from the `forethought.plugins` entry-point group, whose objects are
called with this module's registry functions as keyword arguments.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import metadata

from forethought.embed.base import Embedder
from forethought.errors import InvalidInput

__all__ = ["embedder_names", "load_entry_points", "make_embedder", "register_embedder"]

log = logging.getLogger(__name__)

_EMBEDDERS: dict[str, Callable[[], Embedder]] = {}
_loaded = False


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


def load_entry_points() -> None:
    """Register the built-ins, then every installed `forethought.plugins` entry point (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    _register_builtins()
    for entry in metadata.entry_points(group="forethought.plugins"):
        try:
            entry.load()(register_embedder=register_embedder)
        except Exception:  # a broken plugin must not break the product; say which one
            log.exception("plugin %s failed to load", entry.name)


def _register_builtins() -> None:
    from forethought.embed.hashing import HashingEmbedder
    from forethought.embed.onnx_minilm import MiniLMEmbedder

    register_embedder("minilm", MiniLMEmbedder)
    register_embedder("hashing", HashingEmbedder)
