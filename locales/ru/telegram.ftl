# Telegram only: the private chat, the settings keyboard and the adapter's own answers.

tg-welcome =
    Привет! Я веду игру в УНО в групповых чатах.
    Добавьте меня в группу и начните игру командой /new. Здесь, в личных сообщениях, я показываю ваши карты и кнопки для хода.
tg-welcome-back = Вот ваши карты в текущих играх.
tg-hand-chat = Игра в чате «{ $chat }»
tg-kick-usage = Чтобы исключить игрока, ответьте на его сообщение командой /kick или укажите номер его места после команды.
tg-stale-button-group = Эта кнопка устарела и больше не работает. Игра — в последнем сообщении со столом в этом чате: карты открывает его кнопка «{ btn-my-cards }», новую игру — /new.
tg-stale-settings = Эта кнопка настроек устарела и ничего не меняет. Откройте /settings заново в групповом чате.
tg-error = Что-то пошло не так. Попробуйте ещё раз.
tg-private-only = Эта кнопка работает только в личном чате с ботом.
tg-cmd-start-private = Показать мои карты

## The settings keyboard

tg-set-selected = ✅ { $label }
tg-set-option = { $name }: { $value }
tg-set-timer = ⏱ Таймер: { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунды
    [many] { $seconds } секунд
   *[other] { $seconds } секунды
}
tg-set-timer-off = ⏱ Таймер: выключен
tg-set-strong-bots = 🤖 Сильные роботы: { $value }
tg-set-colorblind = 👁 Для дальтоников: { $value }
tg-set-target = 🏁 Игра до { $count ->
    [one] { $count } очка
    [few] { $count } очков
    [many] { $count } очков
   *[other] { $count } очка
}
tg-set-scoring = 🧮 Подсчёт: { $scoring }
tg-set-creepers = 💥 Криперы: { $value }
