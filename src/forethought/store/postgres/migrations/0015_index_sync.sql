-- What a remote recall engine (Hindsight) still owes the store: one row per record whose indexed
-- state may be stale. Rows carry ids only, never text. No foreign keys, on purpose: a row must
-- outlive the record it names, so that forgetting a record (or erasing its space) still deletes
-- its document from the engine. `generation` grows with every change queued for the record, so
-- a worker that synced an older state never marks a newer one done.
CREATE TABLE index_sync (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    space_id    TEXT COLLATE "C" NOT NULL,
    record_id   TEXT COLLATE "C" NOT NULL UNIQUE,
    generation  BIGINT NOT NULL DEFAULT 1,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     TEXT COLLATE "C" NOT NULL,
    last_error  TEXT COLLATE "C"
);
CREATE INDEX index_sync_due ON index_sync (next_at);
CREATE INDEX index_sync_space ON index_sync (space_id);
