-- Review-time metadata on records: validator flags, the relation found before review, check patterns.
ALTER TABLE records ADD COLUMN flags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE records ADD COLUMN relation TEXT;
ALTER TABLE records ADD COLUMN check_patterns TEXT;
