-- One-off data script for the trade-in launch (run with psql against the primary).
-- Adds the trade-in fee and a fuzzy index so "trade in" finds listings with typos.

ALTER TABLE listings ADD COLUMN trade_in_fee numeric(10,2) DEFAULT 0.00;

UPDATE listings SET trade_in_fee = 15.00 WHERE accepts_trade_in = true;

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX CONCURRENTLY index_listings_on_description_trgm ON listings USING gin (description gin_trgm_ops);
