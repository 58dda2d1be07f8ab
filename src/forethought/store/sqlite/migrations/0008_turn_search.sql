-- Forethought schema, version 8: keyword search over what people and agents said in captured
-- sessions, so a brief can quote past sessions verbatim where no reviewed record applies. One
-- row per person or agent turn (tool output and system text are not searched); the row goes
-- with its session (space erasure deletes both).
CREATE VIRTUAL TABLE turns_fts USING fts5 (
    body,
    space UNINDEXED,
    session UNINDEXED,
    turn UNINDEXED,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

INSERT INTO turns_fts (body, space, session, turn)
    SELECT t.text, s.space_id, t.session_id, t.idx
    FROM turns t JOIN sessions s ON s.id = t.session_id
    WHERE t.role IN ('user', 'agent');
