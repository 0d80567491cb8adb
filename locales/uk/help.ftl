### The bot's help text and its commands.
### cmd-<command>: a short description (at most 100 characters; Telegram and Discord menus).
### cmd-<command>-name: the Discord command name (lowercase, 1-32 letters, digits, - or _).

help-text =
    Як грати в УНО в цьому чаті:
    1. /new — створити гру. Інші приєднуються командою /join, вийти можна командою /leave.
    2. /addbot — додати гравця-бота, якщо людей бракує (потрібно від 2 до 10 гравців).
    3. /start — почати гру, коли всі зібралися. Правила можна обрати заздалегідь у /settings.
    4. Ваші картки бачите лише ви: бот показує їх вам особисто, кнопкою під повідомленням гри або в особистих повідомленнях.
    5. У свій хід покладіть відповідну картку (той самий колір, число або символ) або візьміть картку з колоди.
    6. Лишилася одна картка — швидше скажіть /uno! Тією ж командою ловлять тих, хто забув: їм штраф дві картки.
    7. Підозрюєте блеф із «Візьми чотири»? Перевірте командою /challenge.
    Ще: /rules — правила, /stats — статистика, /kick — вилучити гравця, /kill — завершити гру, /help — ця довідка.

cmd-new = Створити нову гру в цьому чаті
cmd-join = Приєднатися до гри
cmd-leave = Вийти з гри
cmd-start = Почати гру
cmd-addbot = Додати до гри гравця-бота
cmd-kill = Завершити гру в цьому чаті
cmd-kick = Вилучити гравця з гри
cmd-settings = Налаштувати правила гри
cmd-rules = Показати правила
cmd-stats = Статистика гравців
cmd-help = Як грати
cmd-uno = Сказати «УНО!» або впіймати того, хто забув
cmd-challenge = Перевірити «Візьми чотири» на блеф

cmd-new-name = нова
cmd-join-name = приєднатися
cmd-leave-name = вийти
cmd-start-name = почати
cmd-addbot-name = додати-бота
cmd-kill-name = завершити
cmd-kick-name = вигнати
cmd-settings-name = налаштування
cmd-rules-name = правила
cmd-stats-name = статистика
cmd-help-name = допомога
cmd-uno-name = уно
cmd-challenge-name = перевірити
