-- One row per governed turn (or other traced operation): stages, timings, ids and reasons as JSON.
CREATE TABLE traces (
    id         TEXT PRIMARY KEY,
    space_id   TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    session_id TEXT,
    kind       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    data       TEXT NOT NULL
);
CREATE INDEX traces_space ON traces (space_id, created_at);
