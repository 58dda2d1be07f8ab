"""What the SQL backends share: contract modules whose SQL is the same on SQLite and PostgreSQL,
written against `SqlDatabase` (each backend's connection module) with `?` placeholders."""
