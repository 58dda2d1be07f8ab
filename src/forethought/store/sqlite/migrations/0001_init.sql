-- Forethought schema, version 1.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE spaces (
    id           TEXT PRIMARY KEY,
    workspace    TEXT NOT NULL,
    subject_type TEXT NOT NULL,
    subject_id   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    -- Counters that let every process keep its in-memory vector index in step with the table.
    vec_adds     INTEGER NOT NULL DEFAULT 0,
    vec_removes  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (workspace, subject_type, subject_id)
);

CREATE TABLE records (
    rowid         INTEGER PRIMARY KEY AUTOINCREMENT,
    id            TEXT NOT NULL UNIQUE,
    space_id      TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    handle        TEXT NOT NULL,
    lineage_id    TEXT NOT NULL,
    version       INTEGER NOT NULL,
    previous_id   TEXT,
    kind          TEXT NOT NULL,
    statement     TEXT NOT NULL,
    context       TEXT,
    attributes    TEXT NOT NULL,
    evidence      TEXT NOT NULL,
    provenance    TEXT NOT NULL,
    confidence    REAL NOT NULL,
    status        TEXT NOT NULL,
    tags          TEXT NOT NULL,
    occurred_at   TEXT NOT NULL,
    recorded_at   TEXT NOT NULL,
    valid_to      TEXT,
    external_id   TEXT,
    supersedes    TEXT NOT NULL,
    superseded_by TEXT
);
CREATE INDEX records_space_status ON records (space_id, status, kind);
CREATE INDEX records_space_lineage ON records (space_id, lineage_id);
CREATE INDEX records_space_handle ON records (space_id, handle);
CREATE INDEX records_space_occurred ON records (space_id, occurred_at);
CREATE UNIQUE INDEX records_space_external ON records (space_id, external_id)
    WHERE external_id IS NOT NULL;

CREATE TABLE record_tags (
    record_rowid INTEGER NOT NULL REFERENCES records(rowid) ON DELETE CASCADE,
    space_id     TEXT NOT NULL,
    tag          TEXT NOT NULL,
    PRIMARY KEY (record_rowid, tag)
) WITHOUT ROWID;
CREATE INDEX record_tags_space_tag ON record_tags (space_id, tag);

CREATE TABLE record_terms (
    record_rowid INTEGER NOT NULL REFERENCES records(rowid) ON DELETE CASCADE,
    space_id     TEXT NOT NULL,
    term         TEXT NOT NULL,
    PRIMARY KEY (record_rowid, term)
) WITHOUT ROWID;
CREATE INDEX record_terms_space_term ON record_terms (space_id, term);

CREATE TABLE vectors (
    record_rowid INTEGER PRIMARY KEY REFERENCES records(rowid) ON DELETE CASCADE,
    space_id     TEXT NOT NULL,
    vec          BLOB NOT NULL
);
CREATE INDEX vectors_space ON vectors (space_id, record_rowid);

-- rowid = records.rowid. The space id is a column so a MATCH can be narrowed to one space.
CREATE VIRTUAL TABLE records_fts USING fts5 (
    body,
    space UNINDEXED,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    space_id   TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    source     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    metadata   TEXT NOT NULL
);
CREATE INDEX sessions_space ON sessions (space_id, created_at);

CREATE TABLE turns (
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    role        TEXT NOT NULL,
    speaker     TEXT,
    text        TEXT NOT NULL,
    occurred_at TEXT,
    PRIMARY KEY (session_id, idx)
) WITHOUT ROWID;

-- Append-only; rows carry ids and actions, never memory text.
CREATE TABLE audit_events (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT NOT NULL UNIQUE,
    space_id    TEXT NOT NULL,
    action      TEXT NOT NULL,
    actor       TEXT NOT NULL,
    at          TEXT NOT NULL,
    record_id   TEXT,
    lineage_id  TEXT,
    from_status TEXT,
    to_status   TEXT,
    reason      TEXT,
    details     TEXT NOT NULL
);
CREATE INDEX audit_space_seq ON audit_events (space_id, seq);
CREATE INDEX audit_space_lineage ON audit_events (space_id, lineage_id);
