-- What several processes share (issue 15): the transactional outbox, the chats' send budget
-- and the claims on deadlines.
--
-- outbox: what a committed change must still show in its chat, written in the same
-- transaction as the change. An entry is claimed (claimed_until in the future) by the process
-- delivering it; an entry whose claim ran out is taken over by another; sent_at marks it done.
CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_key      TEXT    NOT NULL,
    game_id       INTEGER REFERENCES games (id),
    version       INTEGER NOT NULL DEFAULT 0,
    payload       TEXT    NOT NULL,
    created_at    REAL    NOT NULL,
    claimed_until REAL    NOT NULL DEFAULT 0,
    attempts      INTEGER NOT NULL DEFAULT 0,
    sent_at       REAL
);

CREATE INDEX outbox_pending ON outbox (claimed_until, id) WHERE sent_at IS NULL;

-- send_log: one row per message sent to a chat, so the per-chat budget (20 a minute in a
-- Telegram group) holds across processes; rows older than the budget's period are pruned.
CREATE TABLE send_log (
    chat_key TEXT NOT NULL,
    at       REAL NOT NULL
);

CREATE INDEX send_log_by_chat ON send_log (chat_key, at);

-- A due deadline is claimed by the process that will run it until this time.
ALTER TABLE games ADD COLUMN deadline_claimed_until REAL NOT NULL DEFAULT 0;
