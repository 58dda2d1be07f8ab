-- API keys: one workspace each; only the hash of the key is kept.
CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    workspace  TEXT NOT NULL,
    name       TEXT NOT NULL,
    hash       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX api_keys_workspace ON api_keys (workspace, created_at);
