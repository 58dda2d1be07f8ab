-- V36__audit_partitions_and_slot_guard.sql
-- monthly partitions for audit_log; purge job drops partitions older than 2190 days

CREATE TABLE IF NOT EXISTS audit_log (
    id          BIGINT GENERATED ALWAYS AS IDENTITY,
    actor_id    UUID        NOT NULL,
    patient_id  UUID,
    action      TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (id, created_at)
) PARTITION BY RANGE (created_at);

CREATE TABLE IF NOT EXISTS audit_retention_policy (
    table_name  TEXT PRIMARY KEY,
    keep_days   INTEGER NOT NULL
);
INSERT INTO audit_retention_policy (table_name, keep_days) VALUES ('audit_log', 2190)
ON CONFLICT (table_name) DO UPDATE SET keep_days = EXCLUDED.keep_days;

-- double-booking guard (replaces the old @Version column approach)
ALTER TABLE appointments DROP COLUMN IF EXISTS version;
CREATE UNIQUE INDEX IF NOT EXISTS appointments_provider_start_uq
    ON appointments (provider_id, starts_at)
    WHERE status <> 'cancelled';
