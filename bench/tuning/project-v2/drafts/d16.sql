-- priv/repo/sql/partitions_2026_05.sql
-- Executed by Murmur.Chat.PartitionMaintenanceJob through Ecto.Adapters.SQL.query!/3.

CREATE TABLE IF NOT EXISTS messages_p20260501 PARTITION OF messages
    FOR VALUES FROM ('2026-05-01') TO ('2026-05-02');
CREATE TABLE IF NOT EXISTS messages_p20260502 PARTITION OF messages
    FOR VALUES FROM ('2026-05-02') TO ('2026-05-03');
CREATE TABLE IF NOT EXISTS messages_p20260503 PARTITION OF messages
    FOR VALUES FROM ('2026-05-03') TO ('2026-05-04');

-- retention: 90 days
DROP TABLE IF EXISTS messages_p20260130;
DROP TABLE IF EXISTS messages_p20260131;
