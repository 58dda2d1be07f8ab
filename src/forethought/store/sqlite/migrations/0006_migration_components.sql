-- Forethought schema, version 6: the migration history is keyed by (component, version), so
-- each app keeps its own schema steps in the same history as the core (component 'core').
-- A row written without a component is the core's.
CREATE TABLE schema_history (
    component  TEXT NOT NULL DEFAULT 'core',
    version    INTEGER NOT NULL,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (component, version)
);

INSERT INTO schema_history (component, version, name, applied_at)
    SELECT 'core', version, name, applied_at FROM schema_migrations;

DROP TABLE schema_migrations;

ALTER TABLE schema_history RENAME TO schema_migrations;
