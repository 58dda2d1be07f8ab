-- 10-minute statistics, v2
CREATE TABLE gustlog.signals_10m_v2
(
    turbine   LowCardinality(String),
    signal    LowCardinality(String),
    ts_end    DateTime64(3, 'UTC'),
    mean_state AggregateFunction(avg, Float64),
    min_state  AggregateFunction(min, Float64),
    max_state  AggregateFunction(max, Float64),
    sd_state   AggregateFunction(stddevPop, Float64)
)
ENGINE = ReplacingMergeTree
ORDER BY (turbine, signal, ts_end);

CREATE MATERIALIZED VIEW gustlog.signals_10m_v2_mv TO gustlog.signals_10m_v2 AS
SELECT turbine, signal,
       toStartOfInterval(ts, INTERVAL 10 MINUTE) + INTERVAL 10 MINUTE AS ts_end,
       avgState(value), minState(value), maxState(value), stddevPopState(value)
FROM gustlog.signals_raw
GROUP BY turbine, signal, ts_end;
