### Discord: what only the Discord adapter shows (command options, hands, settings menus).
### The shared texts (table, hand, buttons, notices) are in table.ftl and help.ftl.

## The /kick option (a Discord-localized option name: lowercase, 1-32 letters, digits, - or _)

dc-kick-player-name = гравець
dc-kick-player-description = Кого вилучити з гри

## Hands

dc-choose-color = 🎨 Який колір замовити для картки { $card }?
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

dc-error-internal = Щось пішло не так. Спробуйте ще раз.
dc-no-access = Ботові бракує прав писати в цей канал: дозвольте йому надсилати повідомлення.

## The /settings menu

dc-settings-hint = Змінювати налаштування може творець гри або адміністратор сервера; «Мої картки в особистих повідомленнях» кожен обирає для себе. Нові правила діють з наступної гри.
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
dc-opt-colorblind = Режим для людей з дальтонізмом
dc-opt-dm-hands = Мої картки в особистих повідомленнях (особисто для вас)
dc-opt-scoring = Підрахунок очок
dc-opt-creepers = Кріпери в колоді
dc-opt-state = Зараз: { $value }
