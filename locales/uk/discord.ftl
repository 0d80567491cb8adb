### Discord: what only the Discord adapter shows (command options, hands, settings menus).
### The shared texts (table, hand, buttons, notices) are in table.ftl and help.ftl.

## The /kick options (Discord-localized option names: lowercase, 1-32 letters, digits, - or _)

dc-kick-player-name = гравець
dc-kick-player-description = Кого виключити з гри
dc-kick-seat-name = місце
dc-kick-seat-description = Або номер місця за столом: так виключають і робота
dc-kick-usage = Вкажіть щось одне: учасника в полі «{ dc-kick-player-name }» або номер місця за столом у полі «{ dc-kick-seat-name }» (так виключають і робота).

## Hands

dc-select-card = 🃏 Оберіть картку
dc-select-card-page = 🃏 Оберіть картку (сторінка { $page ->
    [one] { $page }
    [few] { $page }
    [many] { $page }
   *[other] { $page }
} з { $pages ->
    [one] { $pages }
    [few] { $pages }
    [many] { $pages }
   *[other] { $pages }
})
dc-btn-prev = ◀️ Попередні
dc-btn-next = Наступні ▶️
dc-hand-sent-dm = 📬 Картки надіслано вам в особисті повідомлення.
dc-dm-header = 🎴 Гра в каналі { $channel }
dc-dm-closed = { $mention }, бот не може написати вам в особисті повідомлення. Дозвольте особисті повідомлення від учасників цього сервера в налаштуваннях конфіденційності, а поки дивіться картки кнопкою «🃏 Мої картки».

## Problems

dc-stale-component = Ця кнопка застаріла й більше не працює. Гра — в останньому повідомленні зі столом у каналі: картки відкриває його кнопка «{ btn-my-cards }», нову гру — /new.
dc-error-internal = Щось пішло не так. Спробуйте ще раз.
dc-no-access = Ботові бракує прав писати в цей канал: дозвольте йому надсилати повідомлення.

## The /settings menu

dc-settings-hint = Змінювати налаштування може творець гри або адміністратор сервера; «Картки в особисті повідомлення» кожен обирає для себе. Нові правила діють з наступної гри.
dc-set-preset = Набір правил
dc-set-lang = Мова бота
dc-set-timer = Час на хід
dc-set-target = До скількох очок грати
dc-set-toggle = Увімкнути або вимкнути правило
dc-timer-option = { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунди
    [many] { $seconds } секунд
   *[other] { $seconds } секунди
}
dc-timer-off = Без таймера
dc-target-option = До { $count ->
    [one] { $count } очка
    [few] { $count } очок
    [many] { $count } очок
   *[other] { $count } очка
}
dc-opt-strong-bots = Сильні роботи в новій грі
dc-opt-colorblind = Режим для дальтоніків
dc-opt-dm-hands = Картки в особисті повідомлення (лише для вас)
dc-opt-scoring = Підрахунок очок
dc-opt-creepers = Кріпери в колоді
dc-opt-state = Зараз: { $value }
