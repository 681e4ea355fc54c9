-- Rooms, their seats, every action of their games, their chat (store.py).
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    seed TEXT NOT NULL,              -- JSON: an integer or a string
    max_deals INTEGER,
    settings TEXT NOT NULL,          -- JSON object: turn_timer, rules, controls, ...
    created REAL NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL REFERENCES rooms(code),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,              -- open | human | bot
    name TEXT NOT NULL,
    token_hash BLOB,
    PRIMARY KEY (room, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL REFERENCES rooms(code),
    seq INTEGER NOT NULL,            -- 0, 1, 2, ... : the game's action index
    action TEXT NOT NULL,            -- JSON: Action.to_dict()
    PRIMARY KEY (room, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms(finished);
CREATE TABLE IF NOT EXISTS chat (    -- a room's last chat lines (chat.py), never its record
    room TEXT NOT NULL REFERENCES rooms(code),
    n INTEGER NOT NULL,              -- the line's number in the room: 0, 1, 2, ...
    seat INTEGER,                    -- null: a spectator
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (room, n)
) WITHOUT ROWID;
