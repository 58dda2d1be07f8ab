-- V202604201015__add_claim_payout_fields.sql
-- CLAIMS-1551: track payouts per claim

ALTER TABLE claims ADD COLUMN payout_status varchar(32);

ALTER TABLE claims ADD CONSTRAINT chk_claims_payout_status
    CHECK (payout_status IN ('PENDING', 'SENT', 'RETURNED'));

CREATE TABLE claim_payouts (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    claim_id       uuid        NOT NULL REFERENCES claims (id),
    amount_minor   bigint      NOT NULL,
    currency       char(3)     NOT NULL,
    status         varchar(32) NOT NULL DEFAULT 'PENDING',
    sent_at        timestamptz,
    CONSTRAINT chk_claim_payouts_status CHECK (status IN ('PENDING', 'SENT', 'RETURNED'))
);

CREATE INDEX idx_claim_payouts_claim_id ON claim_payouts (claim_id);
