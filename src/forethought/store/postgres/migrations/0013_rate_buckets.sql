-- Token buckets of the rate limits (requests per API key, failed authentications per address and
-- claimed key id, logins per key), kept here so that every process and host on this database
-- spends from one budget. A row keeps its own rate and burst, so a full one can be pruned.
CREATE TABLE rate_buckets (
    name    TEXT COLLATE "C" PRIMARY KEY,
    tokens  DOUBLE PRECISION NOT NULL,
    at      DOUBLE PRECISION NOT NULL,
    rate    DOUBLE PRECISION NOT NULL,
    burst   INTEGER NOT NULL,
    granted INTEGER NOT NULL
);
CREATE INDEX rate_buckets_at ON rate_buckets (at)
