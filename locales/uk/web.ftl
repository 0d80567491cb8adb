# The web table (a Telegram Mini App, or a local browser page).

web-you = (ви)
web-leave = 🚪 Вийти з гри
web-leave-sure = 🚪 Справді вийти? Натисніть ще раз.
web-reconnecting = Зв'язок перервався, під'єднуємося знову…
web-bad-message = Сторінка надіслала щось незрозуміле — нічого не змінилося.
web-open-table = 🎴 Відкрити стіл
web-local-ready = 🎴 Стіл відкрито в браузері: { $url }
web-local-stop = Зупинити: { $keys }.

## Why the page is refused or closed (it does not reconnect after these).
web-refused-auth = Не вдалося перевірити, хто ви. Відкрийте стіл кнопкою в Телеграмі знову.
web-refused-expired = Посилання застаріло. Відкрийте стіл кнопкою в Телеграмі ще раз.
web-refused-no-game = Такої гри немає.
web-refused-not-in-game = Ви не сидите за цим столом.
web-closed-other-tab = Стіл відкрито в іншій вкладці — грайте там.
web-closed-flood = Забагато натискань поспіль. Відкрийте стіл знову.
web-closed-too-big = Сторінка надіслала задовге повідомлення. Відкрийте стіл знову.

## `python -m bot --help`
console-help-web = стіл у браузері на цьому комп'ютері, проти роботів
