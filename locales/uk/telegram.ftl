# Telegram only: the private chat, the settings keyboard and the adapter's own answers.

tg-welcome =
    Привіт! Я веду гру в УНО в групових чатах.
    Додайте мене до групи й почніть гру командою /new. Тут, в особистих повідомленнях, я показую ваші картки та кнопки для ходу.
tg-welcome-back = Ось ваші картки в поточних іграх.
tg-hand-chat = Гра в чаті «{ $chat }»
tg-kick-usage = Щоб виключити гравця, надішліть /kick у відповідь на його повідомлення або вкажіть номер його місця після команди.
tg-stale-button-group = Ця кнопка застаріла й більше не працює. Гра — в останньому повідомленні зі столом у цьому чаті: картки відкриває його кнопка «{ btn-my-cards }», нову гру — /new.
tg-stale-settings = Ця кнопка налаштувань застаріла й нічого не змінює. Відкрийте /settings знову в груповому чаті.
tg-error = Щось пішло не так. Спробуйте ще раз.
tg-private-only = Ця кнопка працює лише в особистому чаті з ботом.
tg-cmd-start-private = Показати мої картки

## The settings keyboard

tg-set-selected = ✅ { $label }
tg-set-option = { $name }: { $value }
tg-set-timer = ⏱ Таймер: { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунди
    [many] { $seconds } секунд
   *[other] { $seconds } секунди
}
tg-set-timer-off = ⏱ Таймер: вимкнено
tg-set-strong-bots = 🤖 Сильні роботи: { $value }
tg-set-colorblind = 👁 Для дальтоніків: { $value }
tg-set-target = 🏁 Гра до { $count ->
    [one] { $count } очка
    [few] { $count } очок
    [many] { $count } очок
   *[other] { $count } очка
}
tg-set-scoring = 🧮 Підрахунок: { $scoring }
tg-set-creepers = 💥 Кріпери: { $value }
