-- A chat's games newest first (the rematch looks up the chat's last game). Without it that
-- lookup walks every game of every chat back to the chat's last one, or all of them for a
-- chat that never played.
CREATE INDEX games_by_chat ON games (chat_key, id);
