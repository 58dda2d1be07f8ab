-- Work that must happen after a record is committed (embedding it when the embedder was down,
-- later: syncing to a remote recall engine). Rows carry ids only, never text; done rows are deleted.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    space_id     TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    record_rowid INTEGER NOT NULL REFERENCES records(rowid) ON DELETE CASCADE,
    job          TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT NOT NULL,
    last_error   TEXT,
    UNIQUE (record_rowid, job)
);
CREATE INDEX outbox_due ON outbox (next_at);
