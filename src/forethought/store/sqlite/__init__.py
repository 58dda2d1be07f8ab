"""The embedded SQLite store."""

from forethought.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
