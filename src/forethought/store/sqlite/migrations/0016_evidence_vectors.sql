-- The embedding of each record's first evidence quote, made at retain time by the store's own
-- embedder (the statement's is in `vectors`), so a brief scores how a task meets a record's
-- evidence without embedding it again. `digest` is the sha256 of the quote the vector was made
-- from: a reader uses the vector only while the record's first quote still hashes to it. Rows go
-- with their record (erasure deletes them with it).
CREATE TABLE evidence_vectors (
    record_rowid INTEGER PRIMARY KEY REFERENCES records(rowid) ON DELETE CASCADE,
    space_id     TEXT NOT NULL,
    digest       TEXT NOT NULL,
    vec          BLOB NOT NULL
);
