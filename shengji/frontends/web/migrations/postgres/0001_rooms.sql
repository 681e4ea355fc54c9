-- Rooms, their seats, every action of their games, their chat (pgstore.py), and the
-- lease of one writer per room (lease.py). The same tables as the SQLite store.
CREATE TABLE rooms (
    code text PRIMARY KEY,
    variant text NOT NULL,
    seed text NOT NULL,              -- JSON: an integer or a string
    max_deals integer,
    settings text NOT NULL,          -- JSON object: turn_timer, rules, controls, ...
    created timestamptz NOT NULL DEFAULT now(),
    started boolean NOT NULL DEFAULT false,
    finished boolean NOT NULL DEFAULT false
);
CREATE INDEX rooms_unfinished ON rooms (code) WHERE NOT finished;
CREATE TABLE seats (
    room text NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat integer NOT NULL,
    kind text NOT NULL,              -- open | human | bot
    name text NOT NULL,
    token_hash bytea,
    PRIMARY KEY (room, seat)
);
CREATE TABLE actions (
    room text NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seq integer NOT NULL,            -- 0, 1, 2, ... : the game's action index
    action text NOT NULL,            -- JSON: Action.to_dict()
    PRIMARY KEY (room, seq)
);
CREATE TABLE chat (
    room text NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    n integer NOT NULL,              -- the line's number in the room: 0, 1, 2, ...
    seat integer,                    -- null: a spectator
    name text NOT NULL,
    text text NOT NULL,
    PRIMARY KEY (room, n)
);
CREATE TABLE processes (
    owner text PRIMARY KEY,          -- random, one per server process
    host text NOT NULL,              -- host name and boot id
    pid integer NOT NULL,
    expires timestamptz NOT NULL     -- renewed while the process runs
);
CREATE TABLE owners (
    room text PRIMARY KEY REFERENCES rooms (code) ON DELETE CASCADE,
    owner text NOT NULL
);
CREATE INDEX owners_owner ON owners (owner);
