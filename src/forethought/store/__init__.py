"""Stores: the Store seam (narrow contracts, `base.py`) and its backends (`sqlite/`, `postgres/`)."""

from forethought.store.base import (
    AppMigration,
    AppTables,
    Capabilities,
    ChangeSet,
    NewRecord,
    RecordFilter,
    ScoredId,
    Store,
)

__all__ = ["AppMigration", "AppTables", "Capabilities", "ChangeSet", "NewRecord", "RecordFilter", "ScoredId", "Store"]
