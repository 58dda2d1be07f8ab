-- What a remote recall engine (Hindsight) still owes the store: one row per record whose indexed
-- state may be stale. Rows carry ids only, never text. No foreign keys, on purpose: a row must
-- outlive the record it names, so that forgetting a record (or erasing its space) still deletes
-- its document from the engine. `generation` grows with every change queued for the record, so
-- a worker that synced an older state never marks a newer one done.
CREATE TABLE index_sync (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    space_id    TEXT NOT NULL,
    record_id   TEXT NOT NULL UNIQUE,
    generation  INTEGER NOT NULL DEFAULT 1,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     TEXT NOT NULL,
    last_error  TEXT
);
CREATE INDEX index_sync_due ON index_sync (next_at);
CREATE INDEX index_sync_space ON index_sync (space_id);
