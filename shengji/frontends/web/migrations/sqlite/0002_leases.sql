-- One writer per room (lease.py): the server processes and the room each one serves.
CREATE TABLE IF NOT EXISTS processes (
    owner TEXT PRIMARY KEY,          -- random, one per server process
    host TEXT NOT NULL,              -- host name and boot id
    pid INTEGER NOT NULL,
    expires REAL NOT NULL            -- unix time; renewed while the process runs
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS owners (
    room TEXT PRIMARY KEY REFERENCES rooms(code),
    owner TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS owners_owner ON owners(owner);
