-- migration 0f31: drop legacy columns and rename ward
BEGIN;
ALTER TABLE admission ADD COLUMN ward_code text;
UPDATE admission SET ward_code = ward;
ALTER TABLE admission DROP COLUMN ward;
ALTER TABLE admission DROP COLUMN patient_name;
COMMIT;
