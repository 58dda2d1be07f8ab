"""The memory pipeline: extraction, validation, relation, review, retain; brief, check, ask; the turn."""
