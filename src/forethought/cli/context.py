"""What every command gets: its arguments, the settings, the app, the space key, and the memory."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forethought.apps.base import App
from forethought.engines import engine_from_settings
from forethought.errors import InvalidInput, NotFound
from forethought.facade import Forethought, Scope
from forethought.llm.base import ChatModel
from forethought.plugins import model_from_settings
from forethought.settings import Settings
from forethought.targets import is_postgres_url

__all__ = ["Context", "Output", "decode_input", "read_file_arg", "read_text_arg"]

MAX_INPUT_BYTES = 1 << 20


@dataclass
class Output:
    """What a command prints (`data` as JSON with --json, `text` otherwise) and its exit code."""

    data: Any
    text: str | None = None
    code: int = 0


@dataclass
class Context:
    args: argparse.Namespace
    settings: Settings
    app: App
    _memory: Forethought | None = field(default=None, repr=False)
    _model: ChatModel | None = field(default=None, repr=False)
    _model_made: bool = False
    _scope: Scope | None = field(default=None, repr=False)

    @property
    def scope(self) -> Scope:
        """The subject the command names: --space within the --app, in the configured workspace
        (resolved once per command, on the memory the command opened)."""
        if self._scope is None:
            self._scope = self.memory().scope(
                self.app, self.args.space, workspace=self.settings.workspace, field="--space"
            )
        return self._scope

    def memory(self, *, create: bool = False) -> Forethought:
        if self._memory is None:
            db: str | Path = self.settings.db if is_postgres_url(self.settings.db) else Path(self.settings.db)
            if not create and isinstance(db, Path) and not db.exists():
                raise NotFound(f"no database at {db} (retain, submit or import something first, or pass --db)")
            engine = engine_from_settings(self.settings.recall)
            self._memory = Forethought.open(db, embedder=self.settings.embedder, actor="cli", engine=engine)
        return self._memory

    def model(self) -> ChatModel | None:
        """The configured chat model, or None for the heuristic mode."""
        if not self._model_made:
            self._model = model_from_settings(self.settings.llm)
            self._model_made = True
        return self._model

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()


def read_text_arg(value: str, *, field_name: str = "text") -> str:
    """A TEXT argument, or standard input for '-' (strict UTF-8, size-limited)."""
    if value != "-":
        return value
    return decode_input(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1), f"{field_name}: standard input")


def read_file_arg(path: str, *, field_name: str = "file", limit: int = 4 * MAX_INPUT_BYTES) -> str:
    """A file's text ('-' for standard input), strict UTF-8, at most `limit` bytes."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
    except OSError as exc:
        raise InvalidInput(f"{field_name}: cannot read {path} ({exc.strerror})") from None
    return decode_input(data, f"{field_name}: {path}", limit=limit)


def decode_input(data: bytes, where: str, *, limit: int = MAX_INPUT_BYTES) -> str:
    if len(data) > limit:
        raise InvalidInput(f"{where} is over the limit of {limit:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{where} is not valid UTF-8") from None
