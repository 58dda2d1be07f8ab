-- Deploy quire:add_hold_queue to pg
-- requires: loans
-- requires: items

BEGIN;

CREATE TABLE hold_queue (
    id            bigserial PRIMARY KEY,
    item_id       bigint      NOT NULL REFERENCES items (id),
    patron_id     bigint      REFERENCES patrons (id) ON DELETE SET NULL,
    branch_id     integer     NOT NULL REFERENCES branches (id),
    position      integer     NOT NULL,
    placed_at     timestamptz NOT NULL DEFAULT now(),
    notified_at   timestamptz,
    expires_at    timestamptz,
    state         text        NOT NULL DEFAULT 'waiting'
                  CHECK (state IN ('waiting', 'ready', 'collected', 'expired', 'cancelled')),
    UNIQUE (item_id, position) DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX hold_queue_item_waiting_idx
    ON hold_queue (item_id, position)
    WHERE state = 'waiting';

CREATE INDEX hold_queue_patron_idx ON hold_queue (patron_id);

COMMENT ON TABLE hold_queue IS 'Ordered holds per item; position 1 is next in line.';

COMMIT;
