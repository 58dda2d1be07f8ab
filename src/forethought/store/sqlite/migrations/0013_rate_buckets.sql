-- Token buckets of the rate limits (requests per API key, failed authentications per address and
-- claimed key id, logins per key), kept here when several processes share the database so that
-- they spend from one budget. A row keeps its own rate and burst, so a full one can be pruned.
CREATE TABLE rate_buckets (
    name    TEXT PRIMARY KEY,
    tokens  REAL NOT NULL,
    at      REAL NOT NULL,
    rate    REAL NOT NULL,
    burst   INTEGER NOT NULL,
    granted INTEGER NOT NULL
);
CREATE INDEX rate_buckets_at ON rate_buckets (at)
