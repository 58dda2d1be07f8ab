"""Backends opened by name whose drivers load only when one is opened: importing psycopg and its
pool cost ~125 ms, which every CLI command and agent hook would otherwise pay at start."""

from __future__ import annotations

from pathlib import Path

from forethought.store.base import Store

__all__ = ["open_postgres"]


def open_postgres(path: str | Path, /, *, dim: int) -> Store:
    """The PostgreSQL store at the `postgresql://` URL `path`."""
    from forethought.store.postgres import PostgresStore

    return PostgresStore(path, dim=dim)
