# Telegram: playing from the group through inline mode, and where a chat plays.

inline-btn-play-here = 🎴 Ходить здесь
inline-play-mode-both = в личном чате и в группе
inline-play-mode-private = в личном чате
inline-play-mode-group = в группе
inline-set-play-mode = 🎮 Где ходить: { $mode }
inline-settings-play-mode = Где ходить: { $mode }
inline-card-playable = Можно сыграть
inline-card-dimmed = Сейчас не сыграть
inline-action = Ход без карты
inline-not-in-game-title = Вы не играете за этим столом
inline-not-in-game-text = Присоединяйтесь к следующей игре: /new или /join в группе.
inline-not-in-game-message = 🃏 Смотрю игру со стороны.
inline-no-game-title = Здесь сейчас нет игры
inline-no-game-text = Начните её в группе командой /new.
inline-no-game-message = 🃏 Кто со мной в УНО? Начинаем командой /new.
inline-refused = ❌ { $reason }
inline-not-playable = Эту карту сейчас сыграть нельзя.
inline-cancelled = Ход отменён, карта осталась у вас.
inline-note = Ваш выбор в группе не сыгран: { $reason }
inline-group-mode = В этом чате ходят прямо в группе: нажмите «{ inline-btn-play-here }» под столом.
inline-stale = Этот выбор устарел: откройте карты заново кнопкой «{ inline-btn-play-here }».
inline-sticker-set-title = Карты УНО от @{ $bot }
inline-not-yours = Это выбор другого игрока.
