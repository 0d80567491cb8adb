# Telegram only: turn notifications and what a waiting hand shows.

# Under a hand that can do nothing until its turn (who moves and the top card are on the table in the group).
tg-notify-on = 🔔 Уведомления о ходе включены: когда наступит ваш ход, карты придут сюда новым сообщением. Выключить — /notify.
tg-notify-off = 🔕 Уведомления о ходе выключены: карты будут обновляться в том же сообщении, без уведомления. Включить — /notify.
tg-notify-private = Уведомления о ходе настраиваются в личном чате с ботом: отправьте ему /notify.
tg-cmd-notify-private = Уведомления о моём ходе: вкл./выкл.
