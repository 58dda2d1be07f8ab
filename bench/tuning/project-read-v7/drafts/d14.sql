-- claims_retention_purge.sql
-- Monthly, from the ops scheduler (pg_cron job 'claims-retention').
-- Removes claims whose retention period has run out (7 years after closure)
-- together with their documents and payment lines.

BEGIN;

CREATE TEMP TABLE expired_claims ON COMMIT DROP AS
SELECT c.id
FROM claims c
WHERE c.status = 'Closed'
  AND c.closed_at < now() - interval '7 years';

DELETE FROM claim_documents d
USING expired_claims e
WHERE d.claim_id = e.id;

DELETE FROM claim_payments p
USING expired_claims e
WHERE p.claim_id = e.id;

DELETE FROM claims c
USING expired_claims e
WHERE c.id = e.id;

-- Manual adjustments, used by the payout reconciliation report.
CREATE TABLE IF NOT EXISTS claim_payment_adjustments (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    claim_id      uuid NOT NULL REFERENCES claims (id),
    adjusted_by   text NOT NULL,
    reason        text NOT NULL,
    amount        double precision NOT NULL,
    currency      char(3) NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS ix_claim_payment_adjustments_claim_id
    ON claim_payment_adjustments (claim_id);

COMMIT;
