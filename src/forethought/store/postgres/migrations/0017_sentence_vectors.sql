-- The embedding of each sentence a brief may quote from a stored turn (the person's and the
-- agent's), made when the turn is captured, so quoting past sessions reads vectors instead of
-- running the model over every sentence of the sessions it looks at. `start` is the sentence's
-- offset in the turn's text, `model` the embedder's name, `digest` the sha256 of the text
-- embedded: a reader uses a vector only while both match. A sentence that may be quoted (one the
-- sentence judge finds durable enough) also keeps the vector of the passage a brief would quote
-- around it, with that passage's digest. Float16 bytes, read back by session,
-- never searched. Rows go with their turn (a session's deletion and a space's erasure cascade; a
-- redaction deletes the rewritten turn's rows).
CREATE TABLE sentence_vectors (
    session_id TEXT COLLATE "C" NOT NULL,
    space_id   TEXT COLLATE "C" NOT NULL,
    turn_idx   INTEGER NOT NULL,
    start      INTEGER NOT NULL,
    model      TEXT COLLATE "C" NOT NULL,
    digest     TEXT COLLATE "C" NOT NULL,
    vec        BYTEA NOT NULL,
    passage_digest TEXT COLLATE "C",
    passage_vec    BYTEA,
    PRIMARY KEY (session_id, turn_idx, start, model),
    FOREIGN KEY (session_id, turn_idx) REFERENCES turns(session_id, idx) ON DELETE CASCADE
);
CREATE INDEX sentence_vectors_space ON sentence_vectors (space_id);
