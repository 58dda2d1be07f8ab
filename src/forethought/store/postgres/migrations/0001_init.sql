-- The whole core schema as of version 10 on SQLite: PostgreSQL databases start here, and the
-- steps 0002-0010 beside this file are recorded in the history without changing anything, so
-- the two backends share one version sequence. Step 11 onwards is written for both.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- Text columns compare byte by byte (COLLATE "C"), as on SQLite, whatever the database's locale.

-- The keyword index's words: English stems without accents (SQLite: porter, remove_diacritics).
CREATE TEXT SEARCH CONFIGURATION forethought (COPY = english);
ALTER TEXT SEARCH CONFIGURATION forethought
    ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;

CREATE TABLE meta (
    key   TEXT COLLATE "C" PRIMARY KEY,
    value TEXT COLLATE "C" NOT NULL
);

CREATE TABLE spaces (
    id           TEXT COLLATE "C" PRIMARY KEY,
    workspace    TEXT COLLATE "C" NOT NULL,
    subject_type TEXT COLLATE "C" NOT NULL,
    subject_id   TEXT COLLATE "C" NOT NULL,
    created_at   TEXT COLLATE "C" NOT NULL,
    -- Vectors added and removed: the space's size, which weighs exact terms by rarity.
    vec_adds     BIGINT NOT NULL DEFAULT 0,
    vec_removes  BIGINT NOT NULL DEFAULT 0,
    UNIQUE (workspace, subject_type, subject_id)
);

CREATE TABLE records (
    seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id            TEXT COLLATE "C" NOT NULL UNIQUE,
    space_id      TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    handle        TEXT COLLATE "C" NOT NULL,
    lineage_id    TEXT COLLATE "C" NOT NULL,
    version       INTEGER NOT NULL,
    previous_id   TEXT COLLATE "C",
    kind          TEXT COLLATE "C" NOT NULL,
    statement     TEXT COLLATE "C" NOT NULL,
    context       TEXT COLLATE "C",
    attributes    TEXT COLLATE "C" NOT NULL,
    evidence      TEXT COLLATE "C" NOT NULL,
    provenance    TEXT COLLATE "C" NOT NULL,
    confidence    DOUBLE PRECISION NOT NULL,
    status        TEXT COLLATE "C" NOT NULL,
    tags          TEXT COLLATE "C" NOT NULL,
    occurred_at   TEXT COLLATE "C" NOT NULL,
    recorded_at   TEXT COLLATE "C" NOT NULL,
    valid_to      TEXT COLLATE "C",
    external_id   TEXT COLLATE "C",
    supersedes    TEXT COLLATE "C" NOT NULL,
    superseded_by TEXT COLLATE "C",
    flags         TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    relation      TEXT COLLATE "C",
    check_patterns TEXT COLLATE "C",
    body          TSVECTOR NOT NULL
);
CREATE INDEX records_space_status ON records (space_id, status, kind);
CREATE INDEX records_space_lineage ON records (space_id, lineage_id);
CREATE INDEX records_space_handle ON records (space_id, handle);
CREATE INDEX records_space_occurred ON records (space_id, occurred_at);
CREATE UNIQUE INDEX records_space_external ON records (space_id, external_id)
    WHERE external_id IS NOT NULL;
CREATE INDEX records_body ON records USING gin (body);

CREATE TABLE record_tags (
    record_seq BIGINT NOT NULL REFERENCES records(seq) ON DELETE CASCADE,
    space_id   TEXT COLLATE "C" NOT NULL,
    tag        TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (record_seq, tag)
);
CREATE INDEX record_tags_space_tag ON record_tags (space_id, tag);

CREATE TABLE record_terms (
    record_seq BIGINT NOT NULL REFERENCES records(seq) ON DELETE CASCADE,
    space_id   TEXT COLLATE "C" NOT NULL,
    term       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (record_seq, term)
);
CREATE INDEX record_terms_space_term ON record_terms (space_id, term);

-- The embedding's dimension is the store's (one model per database, see meta 'embedder'); the
-- HNSW index over it is made when the store opens, for that dimension.
CREATE TABLE record_vectors (
    record_seq BIGINT PRIMARY KEY REFERENCES records(seq) ON DELETE CASCADE,
    space_id   TEXT COLLATE "C" NOT NULL,
    embedding  VECTOR NOT NULL
);
CREATE INDEX record_vectors_space ON record_vectors (space_id);

CREATE TABLE sessions (
    id         TEXT COLLATE "C" PRIMARY KEY,
    space_id   TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    title      TEXT COLLATE "C" NOT NULL,
    source     TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    metadata   TEXT COLLATE "C" NOT NULL
);
CREATE INDEX sessions_space ON sessions (space_id, created_at);
CREATE INDEX sessions_ref ON sessions (space_id, ((metadata::jsonb) ->> 'ref'));

-- `body` holds the keyword entry of the person's and agent's turns (NULL for the others).
CREATE TABLE turns (
    session_id  TEXT COLLATE "C" NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    space_id    TEXT COLLATE "C" NOT NULL,
    role        TEXT COLLATE "C" NOT NULL,
    speaker     TEXT COLLATE "C",
    text        TEXT COLLATE "C" NOT NULL,
    occurred_at TEXT COLLATE "C",
    body        TSVECTOR,
    PRIMARY KEY (session_id, idx)
);
CREATE INDEX turns_space ON turns (space_id);
CREATE INDEX turns_body ON turns USING gin (body);

CREATE TABLE audit_events (
    seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id          TEXT COLLATE "C" NOT NULL UNIQUE,
    space_id    TEXT COLLATE "C" NOT NULL,
    action      TEXT COLLATE "C" NOT NULL,
    actor       TEXT COLLATE "C" NOT NULL,
    at          TEXT COLLATE "C" NOT NULL,
    record_id   TEXT COLLATE "C",
    lineage_id  TEXT COLLATE "C",
    from_status TEXT COLLATE "C",
    to_status   TEXT COLLATE "C",
    reason      TEXT COLLATE "C",
    details     TEXT COLLATE "C" NOT NULL
);
CREATE INDEX audit_space_seq ON audit_events (space_id, seq);
CREATE INDEX audit_space_lineage ON audit_events (space_id, lineage_id);

CREATE TABLE outbox (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    space_id     TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    record_seq   BIGINT NOT NULL REFERENCES records(seq) ON DELETE CASCADE,
    job          TEXT COLLATE "C" NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT COLLATE "C" NOT NULL,
    last_error   TEXT COLLATE "C",
    UNIQUE (record_seq, job)
);
CREATE INDEX outbox_due ON outbox (next_at);

CREATE TABLE traces (
    id         TEXT COLLATE "C" PRIMARY KEY,
    space_id   TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    session_id TEXT COLLATE "C",
    kind       TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    data       TEXT COLLATE "C" NOT NULL
);
CREATE INDEX traces_space ON traces (space_id, created_at);

CREATE TABLE api_keys (
    id         TEXT COLLATE "C" PRIMARY KEY,
    workspace  TEXT COLLATE "C" NOT NULL,
    name       TEXT COLLATE "C" NOT NULL,
    hash       TEXT COLLATE "C" NOT NULL UNIQUE,
    created_at TEXT COLLATE "C" NOT NULL,
    revoked_at TEXT COLLATE "C",
    role       TEXT COLLATE "C" NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'))
);
CREATE INDEX api_keys_workspace ON api_keys (workspace, created_at)
