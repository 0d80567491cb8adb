# Telegram only: turn notifications and what a waiting hand shows.

# Under a hand that can do nothing until its turn (who moves and the top card are on the table in the group).
tg-notify-on = 🔔 Сповіщення про хід увімкнено: коли настане ваш хід, картки надійдуть сюди новим повідомленням. Вимкнути — /notify.
tg-notify-off = 🔕 Сповіщення про хід вимкнено: картки оновлюватимуться в тому самому повідомленні, без сповіщення. Увімкнути — /notify.
tg-notify-private = Сповіщення про хід налаштовуються в особистому чаті з ботом: надішліть йому /notify.
tg-cmd-notify-private = Сповіщення про мій хід: увімк./вимк.
