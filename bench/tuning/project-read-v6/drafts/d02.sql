-- +goose Up
-- 0042: pallet scans from the dock readers
CREATE TABLE PalletScan (
    id            BIGSERIAL PRIMARY KEY,
    shipment_id   TEXT        NOT NULL,
    dock          SMALLINT    NOT NULL,
    reader_serial TEXT        NOT NULL,
    scannedAt     TIMESTAMP   NOT NULL DEFAULT now(),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    weight_grams  INTEGER,
    is_damaged    BOOLEAN     NOT NULL DEFAULT false,
    CONSTRAINT pallet_scan_dock_chk CHECK (dock BETWEEN 1 AND 64)
);

CREATE INDEX pallet_scan_shipment_idx ON PalletScan (shipment_id, scannedAt);
CREATE INDEX pallet_scan_reader_idx ON PalletScan (reader_serial);

COMMENT ON TABLE PalletScan IS 'one row per RFID read at a dock door';

-- +goose Down
DROP TABLE PalletScan;
