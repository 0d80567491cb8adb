# Верхня карта на столі зображенням (налаштування чату в /settings, Telegram).
tg-set-table-picture = 🖼 Зображення на столі: { $value }
tg-settings-table-picture = Верхня карта на столі зображенням: { $value }
