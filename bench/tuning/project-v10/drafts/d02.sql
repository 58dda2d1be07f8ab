-- 0009: add turbidity channel
ALTER TABLE telemetry.readings ADD COLUMN turbidity_ntu double precision;

CREATE INDEX readings_rtu_ts_idx ON telemetry.readings (rtu_id, ts DESC);
