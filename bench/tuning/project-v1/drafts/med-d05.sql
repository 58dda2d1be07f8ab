-- appointments: rename practitioner_note to clinical_note and drop legacy column
BEGIN;
ALTER TABLE appointments RENAME COLUMN practitioner_note TO clinical_note;
ALTER TABLE appointments DROP COLUMN legacy_room_code;
ALTER TABLE appointments ALTER COLUMN starts_at TYPE timestamptz;
COMMIT;
