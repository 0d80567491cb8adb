# Верхняя карта на столе картинкой (настройка чата в /settings, Telegram).
tg-set-table-picture = 🖼 Картинка на столе: { $value }
tg-settings-table-picture = Верхняя карта на столе картинкой: { $value }
