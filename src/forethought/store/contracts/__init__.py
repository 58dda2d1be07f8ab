"""The narrow contracts a store backend implements, one module each (see `forethought.store.base`)."""

from forethought.store.contracts.app_tables import AppTables
from forethought.store.contracts.audit import AuditLog
from forethought.store.contracts.imports import ImportJobStore
from forethought.store.contracts.index_sync import IndexSyncStore
from forethought.store.contracts.keys import KeyStore
from forethought.store.contracts.limits import LimitStore
from forethought.store.contracts.logins import LoginStore
from forethought.store.contracts.outbox import OutboxStore
from forethought.store.contracts.records import RecordStore
from forethought.store.contracts.search import SearchIndex
from forethought.store.contracts.sessions import SessionStore
from forethought.store.contracts.spaces import SpaceStore
from forethought.store.contracts.traces import TraceStore

__all__ = [
    "AppTables",
    "AuditLog",
    "ImportJobStore",
    "IndexSyncStore",
    "KeyStore",
    "LimitStore",
    "LoginStore",
    "OutboxStore",
    "RecordStore",
    "SearchIndex",
    "SessionStore",
    "SpaceStore",
    "TraceStore",
]
