-- ground/migrations/0007_retention_and_rollups.sql
-- Raw readings: two years, then only the hourly rollup survives.

SELECT create_hypertable('readings', 'received_at',
                         chunk_time_interval => INTERVAL '7 days',
                         if_not_exists => TRUE);

ALTER TABLE readings SET (
    timescaledb.compress,
    timescaledb.compress_segmentby = 'station_id',
    timescaledb.compress_orderby = 'received_at DESC'
);

-- compress raw chunks once they are a month old (queries on them are rare)
SELECT add_compression_policy('readings', INTERVAL '30 days', if_not_exists => TRUE);

CREATE MATERIALIZED VIEW IF NOT EXISTS readings_hourly
WITH (timescaledb.continuous) AS
SELECT station_id,
       time_bucket(INTERVAL '1 hour', received_at) AS bucket,
       avg(temp_centi_c)::int          AS temp_centi_c_avg,
       min(temp_centi_c)               AS temp_centi_c_min,
       max(temp_centi_c)               AS temp_centi_c_max,
       avg(pressure_pa)::int           AS pressure_pa_avg,
       max(wind_mm_s)                  AS wind_gust_mm_s,
       sum(rain_tips)                  AS rain_tips
  FROM readings
 GROUP BY station_id, bucket
WITH NO DATA;

SELECT add_continuous_aggregate_policy('readings_hourly',
    start_offset      => INTERVAL '3 hours',
    end_offset        => INTERVAL '1 hour',
    schedule_interval => INTERVAL '30 minutes',
    if_not_exists     => TRUE);

-- raw rows go after 2 years; the hourly view has no retention policy on purpose
SELECT add_retention_policy('readings', INTERVAL '2 years', if_not_exists => TRUE);
