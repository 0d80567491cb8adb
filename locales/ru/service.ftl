# Answers of the service itself: faults of the machine, not of the move.

# The database failed (locked, full, read-only): nothing changed, the same command may work later.
error-storage = Бот сейчас не может достучаться до своей базы данных, поэтому ничего не изменилось. Попробуйте ещё раз через минуту.
# A stored game could not be loaded and was closed, so that the chat can start a new one.
notice-game-broken = ⚠️ Сохранённую игру этого чата не удалось загрузить, и её пришлось закрыть. Новую можно начать командой /new.
# The bot is so loaded that the command did not get its turn in time: nothing changed.
error-busy = Стол сейчас занят: бот не успевает за всеми играми сразу, поэтому ничего не изменилось. Попробуйте ещё раз через { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунды
    [many] { $seconds } секунд
   *[other] { $seconds } секунды
}.
