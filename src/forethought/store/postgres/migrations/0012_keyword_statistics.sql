-- How many of a space's records hold each keyword-index word (its lexeme): BM25's document
-- frequencies per space, kept with every insert and erasure, so that a query reads a word's
-- rarity from one index row instead of counting its postings.
CREATE TABLE record_lexemes (
    space_id TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    lexeme   TEXT COLLATE "C" NOT NULL,
    df       BIGINT NOT NULL,
    PRIMARY KEY (space_id, lexeme)
);

INSERT INTO record_lexemes (space_id, lexeme, df)
    SELECT space_id, lexeme, COUNT(*) FROM (SELECT space_id, unnest(tsvector_to_array(body)) AS lexeme FROM records) held
    GROUP BY space_id, lexeme
