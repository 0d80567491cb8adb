# The web table (a Telegram Mini App, or a local browser page).

web-you = (вы)
web-leave = 🚪 Выйти из игры
web-leave-sure = 🚪 Точно выйти? Нажмите ещё раз.
web-reconnecting = Связь прервалась, подключаемся снова…
web-bad-message = Страница прислала что-то непонятное — ничего не изменилось.
web-open-table = 🎴 Открыть стол
web-local-ready = 🎴 Стол открыт в браузере: { $url }
web-local-stop = Остановить: { $keys }.

## Why the page is refused or closed (it does not reconnect after these).
web-refused-auth = Не удалось проверить, кто вы. Откройте стол кнопкой в Телеграме заново.
web-refused-expired = Ссылка устарела. Откройте стол кнопкой в Телеграме ещё раз.
web-refused-no-game = Такой игры нет.
web-refused-not-in-game = Вы не сидите за этим столом.
web-closed-other-tab = Стол открыт в другой вкладке — играйте там.
web-closed-flood = Слишком много нажатий подряд. Откройте стол заново.
web-closed-too-big = Страница прислала слишком длинное сообщение. Откройте стол заново.

## `python -m bot --help`
console-help-web = стол в браузере на этом компьютере, против роботов
