# Answers of the service itself: faults of the machine, not of the move.

# The database failed (locked, full, read-only): nothing changed, the same command may work later.
error-storage = Бот сейчас не может достучаться до своей базы данных, поэтому ничего не изменилось. Попробуйте ещё раз через минуту.
# A stored game could not be loaded and was closed, so that the chat can start a new one.
notice-game-broken = ⚠️ Сохранённую игру этого чата не удалось загрузить, и её пришлось закрыть. Новую можно начать командой /new.
