-- Each match's number in the hall, 1, 2, 3 … in the order the hall heard of them: what
-- `referee serve`, `matches` and `export` with --db postgresql://… call it.
ALTER TABLE matches ADD COLUMN number bigint GENERATED ALWAYS AS IDENTITY UNIQUE;
