# Answers of the service itself: faults of the machine, not of the move.

# The database failed (locked, full, read-only): nothing changed, the same command may work later.
error-storage = Бот зараз не може дістатися до своєї бази даних, тож нічого не змінилося. Спробуйте ще раз за хвилину.
# A stored game could not be loaded and was closed, so that the chat can start a new one.
notice-game-broken = ⚠️ Збережену гру цього чату не вдалося завантажити, і її довелося закрити. Нову можна почати командою /new.
# The bot is so loaded that the command did not get its turn in time: nothing changed.
error-busy = Стіл зараз зайнятий: бот не встигає за всіма іграми одразу, тож нічого не змінилося. Спробуйте ще раз за { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунди
    [many] { $seconds } секунд
   *[other] { $seconds } секунди
}.
