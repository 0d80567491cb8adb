### Discord: what only the Discord adapter shows (command options, hands, settings menus).
### The shared texts (table, hand, buttons, notices) are in table.ftl and help.ftl.

## The /kick options (Discord-localized option names: lowercase, 1-32 letters, digits, - or _)

dc-kick-player-name = игрок
dc-kick-player-description = Кого исключить из игры
dc-kick-seat-name = место
dc-kick-seat-description = Или номер места за столом: так исключают и робота
dc-kick-usage = Укажите что-то одно: участника в поле «{ dc-kick-player-name }» или номер места за столом в поле «{ dc-kick-seat-name }» (так исключают и робота).

## Hands

dc-select-card = 🃏 Выберите карту
dc-select-card-page = 🃏 Выберите карту (страница { $page ->
    [one] { $page }
    [few] { $page }
    [many] { $page }
   *[other] { $page }
} из { $pages ->
    [one] { $pages }
    [few] { $pages }
    [many] { $pages }
   *[other] { $pages }
})
dc-btn-prev = ◀️ Предыдущие
dc-btn-next = Следующие ▶️
dc-hand-sent-dm = 📬 Карты отправлены вам в личные сообщения.
dc-dm-header = 🎴 Игра в канале { $channel }
dc-dm-closed = { $mention }, бот не может написать вам в личные сообщения. Разрешите личные сообщения от участников этого сервера в настройках конфиденциальности, а пока смотрите карты кнопкой «🃏 Мои карты».

## Problems

dc-stale-component = Эта кнопка устарела и больше не работает. Игра — в последнем сообщении со столом в канале: карты открывает его кнопка «{ btn-my-cards }», новую игру — /new.
dc-error-internal = Что-то пошло не так. Попробуйте ещё раз.
dc-no-access = Боту не хватает прав писать в этот канал: разрешите ему отправлять сообщения.

## The /settings menu

dc-settings-hint = Менять настройки может создатель игры или администратор сервера; «Карты в личные сообщения» каждый выбирает для себя. Новые правила действуют со следующей игры.
dc-set-preset = Набор правил
dc-set-lang = Язык бота
dc-set-timer = Время на ход
dc-set-target = До скольких очков играть
dc-set-toggle = Включить или выключить правило
dc-timer-option = { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунды
    [many] { $seconds } секунд
   *[other] { $seconds } секунды
}
dc-timer-off = Без таймера
dc-target-option = До { $count ->
    [one] { $count } очка
    [few] { $count } очков
    [many] { $count } очков
   *[other] { $count } очка
}
dc-opt-strong-bots = Сильные роботы в новой игре
dc-opt-colorblind = Режим для дальтоников
dc-opt-dm-hands = Карты в личные сообщения (только для вас)
dc-opt-scoring = Подсчёт очков
dc-opt-creepers = Криперы в колоде
dc-opt-state = Сейчас: { $value }
