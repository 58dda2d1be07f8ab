-- The embedding of each record's first evidence quote, made at retain time by the store's own
-- embedder (the statement's is in `record_vectors`), so a brief scores how a task meets a record's
-- evidence without embedding it again. `digest` is the sha256 of the quote the vector was made
-- from: a reader uses the vector only while the record's first quote still hashes to it. Stored
-- as little-endian float32 bytes: it is read back by id, never searched. Rows go with their
-- record (erasure deletes them with it).
CREATE TABLE evidence_vectors (
    record_seq BIGINT PRIMARY KEY REFERENCES records(seq) ON DELETE CASCADE,
    space_id   TEXT COLLATE "C" NOT NULL,
    digest     TEXT COLLATE "C" NOT NULL,
    vec        BYTEA NOT NULL
);
