-- Forethought schema, version 9: every API key has a role. An `admin` key may manage the keys of
-- its workspace and erase memory there; a `member` key reads and writes memory only. Keys made
-- before this version: the oldest active key of each workspace becomes its admin (the key the
-- operator made first), every other key becomes a member; the CLI can always make more admins.
ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'));

UPDATE api_keys SET role = 'admin'
    WHERE revoked_at IS NULL
      AND NOT EXISTS (
          SELECT 1 FROM api_keys older
          WHERE older.workspace = api_keys.workspace
            AND older.revoked_at IS NULL
            AND (older.created_at < api_keys.created_at
                 OR (older.created_at = api_keys.created_at AND older.id < api_keys.id))
      );
