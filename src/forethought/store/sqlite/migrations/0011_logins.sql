-- Browser sessions of the web workspace, by the hash of their token (the token itself is only in
-- the browser's cookie): kept here, a restart logs nobody out and every process sees them.
CREATE TABLE logins (
    token_hash TEXT PRIMARY KEY,
    key_id     TEXT NOT NULL,
    workspace  TEXT NOT NULL,
    csrf       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    seen_at    TEXT NOT NULL,
    notices    TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX logins_key ON logins (key_id, created_at);
CREATE INDEX logins_workspace ON logins (workspace);
CREATE INDEX logins_seen ON logins (seen_at)
