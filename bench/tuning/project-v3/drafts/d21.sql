-- telemetry retention for the insurer
SELECT remove_retention_policy('robot_telemetry');
SELECT add_retention_policy('robot_telemetry', INTERVAL '30 days');
