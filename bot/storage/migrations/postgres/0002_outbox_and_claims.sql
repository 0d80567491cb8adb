-- What several processes share (issue 15): the transactional outbox, the chats' send budget
-- and the claims on deadlines (see the SQLite migration 0006 for the why of each).
CREATE TABLE outbox (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_key      text   NOT NULL,
    game_id       bigint REFERENCES games (id),
    version       bigint NOT NULL DEFAULT 0,
    payload       text   NOT NULL,
    created_at    double precision NOT NULL,
    claimed_until double precision NOT NULL DEFAULT 0,
    attempts      integer NOT NULL DEFAULT 0,
    sent_at       double precision
);

CREATE INDEX outbox_pending ON outbox (claimed_until, id) WHERE sent_at IS NULL;

CREATE TABLE send_log (
    chat_key text NOT NULL,
    at       double precision NOT NULL
);

CREATE INDEX send_log_by_chat ON send_log (chat_key, at);

ALTER TABLE games ADD COLUMN deadline_claimed_until double precision NOT NULL DEFAULT 0;
