-- Statistics by scoring mode. `winner` points (the others' cards, more is better) and `tally`
-- points (your own cards, fewer is better) measure opposite things, so one sum of both is
-- meaningless: `points` keeps the winner-scored ones and the tally ones get columns of their
-- own. A match now records its mode; older matches get it from their game's stored rules.
ALTER TABLE matches ADD COLUMN scoring TEXT NOT NULL DEFAULT 'winner'
    CHECK (scoring IN ('winner', 'tally'));

-- CASE, not AND: SQL does not promise to stop an AND at its first false side, and
-- json_extract raises on text that is not JSON.
UPDATE matches SET scoring = 'tally' WHERE game_id IN (
    SELECT id FROM games
    WHERE CASE WHEN json_valid(state) THEN json_extract(state, '$.rules.scoring') END
          = 'tally'
);

ALTER TABLE player_stats ADD COLUMN tally_games INTEGER NOT NULL DEFAULT 0;

ALTER TABLE player_stats ADD COLUMN tally_points INTEGER NOT NULL DEFAULT 0;

UPDATE player_stats SET
    tally_games = (
        SELECT count(*) FROM matches AS m, json_each(m.results) AS r
        WHERE m.scoring = 'tally' AND m.chat_key = player_stats.chat_key
          AND json_extract(r.value, '$.user_id') = player_stats.user_id
    ),
    tally_points = (
        SELECT coalesce(sum(json_extract(r.value, '$.points')), 0)
        FROM matches AS m, json_each(m.results) AS r
        WHERE m.scoring = 'tally' AND m.chat_key = player_stats.chat_key
          AND json_extract(r.value, '$.user_id') = player_stats.user_id
    );

UPDATE player_stats SET points = points - tally_points;

-- The ranking now depends on the chat's mode (see the leaderboard query), so no single index
-- order serves it; a chat's rows are found by the primary key.
DROP INDEX player_stats_rank;
