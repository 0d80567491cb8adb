### The bot's help text and its commands.
### cmd-<command>: a short description (at most 100 characters; Telegram and Discord menus).
### cmd-<command>-name: the Discord command name (lowercase, 1-32 letters, digits, - or _).

help-text =
    Как играть в УНО в этом чате:
    1. /new — создать игру. Остальные присоединяются командой /join, выйти можно командой /leave.
    2. /addbot — добавить игрока-бота, если людей не хватает (нужно от 2 до 10 игроков).
    3. /start — начать игру, когда все собрались. Правила можно выбрать заранее в /settings.
    4. Ваши карты видите только вы: бот показывает их вам лично, кнопкой под сообщением игры или в личных сообщениях.
    5. В свой ход положите подходящую карту (тот же цвет, число или символ) или возьмите карту из колоды.
    6. Осталась одна карта — скорее скажите /uno! Той же командой ловят тех, кто забыл: им штраф две карты.
    7. Подозреваете блеф с «Возьми четыре»? Проверьте командой /challenge.
    Ещё: /rules — правила, /stats — статистика, /kick — исключить игрока, /kill — завершить игру, /help — эта справка.

cmd-new = Создать новую игру в этом чате
cmd-join = Присоединиться к игре
cmd-leave = Выйти из игры
cmd-start = Начать игру
cmd-addbot = Добавить в игру игрока-бота
cmd-kill = Завершить игру в этом чате
cmd-kick = Исключить игрока из игры
cmd-settings = Настроить правила игры
cmd-rules = Показать правила
cmd-stats = Статистика игроков
cmd-help = Как играть
cmd-uno = Сказать «УНО!» или поймать того, кто забыл
cmd-challenge = Проверить «Возьми четыре» на блеф

cmd-new-name = новая
cmd-join-name = войти
cmd-leave-name = выйти
cmd-start-name = начать
cmd-addbot-name = добавить-бота
cmd-kill-name = завершить
cmd-kick-name = выгнать
cmd-settings-name = настройки
cmd-rules-name = правила
cmd-stats-name = статистика
cmd-help-name = помощь
cmd-uno-name = уно
cmd-challenge-name = проверить
