"""The memory core the pipeline stages run on: records, recall, writing, outbox, transfer, keys.

Nothing here imports the pipeline or the façade; the stages receive a `Memory` and a `Scope`.
"""

from forethought.memory.core import Memory
from forethought.memory.history import History
from forethought.memory.outbox import OutboxReport
from forethought.memory.scope import Scope, UnknownApp, resolve_scope
from forethought.memory.writing import Retained, RetainItem

__all__ = ["History", "Memory", "OutboxReport", "RetainItem", "Retained", "Scope", "UnknownApp", "resolve_scope"]
