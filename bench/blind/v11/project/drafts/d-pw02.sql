-- 0011_weighins.sql: kart weigh-in results from scrutineering
CREATE TABLE IF NOT EXISTS pitwall.weighins
(
    event_id      UInt32,
    event_date    Date,
    kart          UInt16,
    driver_class  LowCardinality(String),
    weight_kg     Float32,
    ballast_kg    Float32,
    weighed_at_us Int64,
    official      LowCardinality(String)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(event_date)
ORDER BY (event_id, kart, weighed_at_us);
