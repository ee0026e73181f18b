-- Tables the restaurant agent's APIs write (kept beside the knowledge base;
-- not part of the schema the parsers see).
CREATE TABLE IF NOT EXISTS reservations(
    txn_id TEXT PRIMARY KEY,
    restaurant TEXT NOT NULL,   -- the restaurant's name (its key value)
    location TEXT,              -- and its city, which tells names apart
    date TEXT NOT NULL,
    time TEXT NOT NULL,
    num_people INTEGER NOT NULL,
    special_requests TEXT,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS cancellations(
    txn_id TEXT PRIMARY KEY,
    booking_id TEXT NOT NULL UNIQUE REFERENCES reservations(txn_id),
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
