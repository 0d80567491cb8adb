# Telegram: playing from the group through inline mode, and where a chat plays.

inline-btn-play-here = 🎴 Ходити тут
inline-play-mode-both = в особистому чаті й у групі
inline-play-mode-private = в особистому чаті
inline-play-mode-group = у групі
inline-set-play-mode = 🎮 Де ходити: { $mode }
inline-settings-play-mode = Де ходити: { $mode }
inline-card-playable = Можна зіграти
inline-card-dimmed = Зараз не зіграти
inline-action = Хід без картки
inline-not-in-game-title = Ви не граєте за цим столом
inline-not-in-game-text = Приєднуйтеся до наступної гри: /new або /join у групі.
inline-not-in-game-message = 🃏 Дивлюся гру збоку.
inline-no-game-title = Тут зараз немає гри
inline-no-game-text = Почніть її в групі командою /new.
inline-no-game-message = 🃏 Хто зі мною в УНО? Починаємо командою /new.
inline-refused = ❌ { $reason }
inline-not-playable = Цю картку зараз зіграти не можна.
inline-cancelled = Хід скасовано, картка лишилася у вас.
inline-note = Ваш вибір у групі не зіграно: { $reason }
inline-group-mode = У цьому чаті ходять просто в групі: натисніть «{ inline-btn-play-here }» під столом.
inline-stale = Цей вибір застарів: відкрийте картки знову кнопкою «{ inline-btn-play-here }».
inline-sticker-set-title = Картки УНО від @{ $bot }
inline-not-yours = Це вибір іншого гравця.
