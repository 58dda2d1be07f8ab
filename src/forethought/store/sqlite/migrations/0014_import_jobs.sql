-- Imports started from the web workspace and their progress events: kept here, a page whose event
-- stream reaches another server process still follows the import. A job belongs to one space and
-- goes with it; `updated_at` is its process's heartbeat (a job not heard of for long has stopped).
CREATE TABLE import_jobs (
    id         TEXT PRIMARY KEY,
    space_id   TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX import_jobs_space ON import_jobs (space_id, created_at);
CREATE INDEX import_jobs_updated ON import_jobs (updated_at);
CREATE TABLE import_events (
    job_id   TEXT NOT NULL REFERENCES import_jobs(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    stage    TEXT NOT NULL,
    percent  INTEGER NOT NULL,
    message  TEXT NOT NULL,
    finished INTEGER NOT NULL,
    PRIMARY KEY (job_id, seq)
)
