-- The hall's shared record: every table's matches, events and heartbeats, pushed by each table.
-- docs/hall.md says what each column means. Applied once, in one transaction, by voice/hall/schema.py.

CREATE TABLE matches (
    id uuid PRIMARY KEY,  -- the match's globally unique id, as the table's record has it
    hall text,  -- the hall's name (--hall, hall.name); NULL if none was given
    table_name text NOT NULL,  -- the table played on: the match's own, else --table / hall.table
    local_id bigint NOT NULL CHECK (local_id >= 1),  -- its number in the table's record
    created timestamptz NOT NULL,  -- when the table created it
    setup jsonb NOT NULL,  -- discipline, distance, players, first … (Setup.to_dict)
    pushed timestamptz NOT NULL DEFAULT now()  -- when the hall first heard of it
);
CREATE INDEX matches_by_table ON matches (hall, table_name, created);

CREATE TABLE events (
    match_id uuid NOT NULL REFERENCES matches (id),
    seq integer NOT NULL CHECK (seq >= 1),  -- 1, 2, 3 … within the match, as the table numbered it
    command jsonb NOT NULL,  -- the command (Command.to_dict): kind, player, points …
    kind text GENERATED ALWAYS AS (command ->> 'kind') STORED,  -- for plain SQL: WHERE kind = …
    created timestamptz NOT NULL,  -- when the table recorded it
    pushed timestamptz NOT NULL DEFAULT now(),  -- when it reached the hall
    PRIMARY KEY (match_id, seq)
);

CREATE TABLE liveness (
    match_id uuid PRIMARY KEY REFERENCES matches (id),
    state text NOT NULL,  -- the voice loop's latest heartbeat: listening, mic_lost, …
    at timestamptz NOT NULL  -- when the table wrote it
);

-- Whoever LISTENs on referee_hall hears the id of each match that got an event or a heartbeat.
CREATE FUNCTION notify_hall() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('referee_hall', NEW.match_id::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION notify_hall();
CREATE TRIGGER liveness_notify AFTER INSERT OR UPDATE ON liveness
    FOR EACH ROW EXECUTE FUNCTION notify_hall();
