-- V202604151120__pairing_swap_request.sql
CREATE TABLE pairing_swap_request (
    id            bigserial PRIMARY KEY,
    requester_id  bigint    NOT NULL REFERENCES crew_member(id),
    pairing_id    text      NOT NULL,
    requested_at  timestamp NOT NULL DEFAULT now(),
    decided_at    timestamptz,
    status        text      NOT NULL DEFAULT 'open'
);

CREATE INDEX pairing_swap_request_status_idx ON pairing_swap_request (status);
