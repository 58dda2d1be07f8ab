-- Forethought schema, version 10: a session captured from a source document (a commit, an ADR, a
-- rule file) names it in `metadata.ref`; an import looks those up to file each document once.
CREATE INDEX IF NOT EXISTS sessions_ref ON sessions (space_id, json_extract(metadata, '$.ref'));
