"""The PostgreSQL store: every store contract on one PostgreSQL database with pgvector."""

from forethought.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
