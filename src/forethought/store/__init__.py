"""Stores: the Store seam and its backends."""

from forethought.store.base import Capabilities, ChangeSet, NewRecord, RecordFilter, ScoredId, Store

__all__ = ["Capabilities", "ChangeSet", "NewRecord", "RecordFilter", "ScoredId", "Store"]
