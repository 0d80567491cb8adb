# The group table, the lobby, the private hand, settings, statistics and the service's answers.

bot-name = 🤖 Робот { $number }
player-unknown = Игрок

## Table

table-title = 🎴 УНО · раунд { $round }
table-top = Сверху: { $card } · цвет: { $color }
table-top-choosing = Сверху: { $card } · цвет выбирает первый игрок
table-direction-cw = ⟳ по часовой стрелке
table-direction-ccw = ⟲ против часовой стрелки
table-draw-pile = в колоде { $count ->
    [one] { $count } карта
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
table-seat = { $name } — { $count ->
    [one] { $count } карта
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
} · { $score ->
    [one] { $score } очко
    [few] { $score } очка
    [many] { $score } очков
   *[other] { $score } очка
}
table-uno-mark = (УНО!)
table-turn = Ходит { $name }.
## A pending penalty. $answer: what the rules let the player do instead of taking the cards
## (`none`, `challenge`, `pass`, `defend`, `challenge-defend`; see Renderer.penalty_answer).
table-pending = { $name }: нужно взять { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}{ $answer ->
    [challenge] {" "}или проверить «+4» на блеф
    [pass] {" "}или передать штраф своей «Возьми две»
    [defend] {" "}или отбиться картой «Возьми две» заказанного цвета
    [challenge-defend] , проверить «+4» на блеф или отбиться картой «Возьми две» заказанного цвета
   *[none] {""}
}.
table-timer = ⏱ На ход { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунды
    [many] { $seconds } секунд
   *[other] { $seconds } секунды
}.
table-finished = 🏆 Игра окончена. { $count ->
    [1] Победитель
    [one] Победители
    [few] Победители
    [many] Победители
   *[other] Победители
}: { $names }
table-killed = Игра остановлена.
table-recent = Последние ходы:

## Lobby

lobby-title = 🎴 УНО — набор игроков
lobby-players = { $count ->
    [one] { $count } игрок:
    [few] { $count } игрока:
    [many] { $count } игроков:
   *[other] { $count } игрока:
}
lobby-rules = Правила: { $rules }
lobby-hint = Присоединяйтесь кнопкой или командой /join; когда все соберутся — /start.
lobby-closed = 🔒 Набор закрыт.
lobby-cancelled = Набор отменён.
# A rematch: the people of the previous match, asked to join (they are not joined for them).
lobby-invited = 🔁 Реванш! { $count ->
    [1] Ждём игрока прошлой партии: { $names }.
    [one] Ждём игроков прошлой партии: { $names }.
    [few] Ждём игроков прошлой партии: { $names }.
    [many] Ждём игроков прошлой партии: { $names }.
   *[other] Ждём игроков прошлой партии: { $names }.
}
preset-custom = свои правила
# The computer players' level ($level: easy, strong). The line is shown once the lobby has a robot.
lobby-bot-level = 🤖 Уровень роботов: { $level ->
    [strong] сильный
   *[easy] простой
}
# The button names the level in force; a press switches to the other one.
btn-bot-level = 🤖 Роботы: { $level ->
    [strong] сильные
   *[easy] простые
}
info-bot-level = Роботы в этой партии будут играть { $level ->
    [strong] сильно
   *[easy] попроще
}.

## Private hand

hand-title = 🃏 Ваши карты ({ $count ->
    [one] { $count } карта
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}):
hand-your-turn = ✅ Ваш ход: выберите карту или возьмите из колоды.
hand-waiting = Ходит { $name }.
hand-waiting-quiet = ⏳ Сейчас не ваш ход. Чей ход и какая карта сверху, видно на столе.
hand-out-of-turn = Можно сделать ход вне очереди.
## $answer: as in table-pending.
hand-pending = ⚠️ Вам нужно взять { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}{ $answer ->
    [challenge] {" "}или проверить «+4» на блеф
    [pass] {" "}или передать штраф своей «Возьми две»
    [defend] {" "}или отбиться картой «Возьми две» заказанного цвета
    [challenge-defend] , проверить «+4» на блеф или отбиться картой «Возьми две» заказанного цвета
   *[none] {""}
}.
hand-choose-color = 🎨 Первая карта — дикая: выберите цвет.
hand-drawn = Вы взяли { $card }. Сыграйте её или пасуйте.
hand-left = Вы больше не участвуете в этой игре.
hand-finished = Игра окончена.

## Buttons

btn-draw = 📥 Взять карту
btn-pass = ⏭ Пасовать
btn-accept = 📥 Взять { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
btn-challenge = ⚖️ Проверить на блеф
btn-uno = 📣 УНО!
btn-catch = 🫵 Поймать!
btn-join = ➕ Присоединиться
btn-addbot = 🤖 Добавить робота
btn-start = ▶️ Начать
btn-my-cards = 🃏 Мои карты
btn-open-dm = 💬 Открыть чат с ботом
btn-back = ↩️ Назад
btn-rematch = 🔁 Реванш

## Settings

value-on = вкл.
value-off = выкл.
lang-ru = русский
lang-uk = украинский
settings-title = ⚙️ Настройки чата
settings-preset = Правила: { $preset }
settings-lang = Язык: { $language }
settings-timer = Таймер хода: { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунды
    [many] { $seconds } секунд
   *[other] { $seconds } секунды
}
settings-timer-off = Таймер хода: выключен
settings-colorblind = Режим для дальтоников: { $value }
settings-strong-bots = 🤖 Сильные роботы: { $value }
settings-scoring = Подсчёт очков: { $scoring }
settings-target = Игра до { $count ->
    [one] { $count } очка
    [few] { $count } очков
    [many] { $count } очков
   *[other] { $count } очка
}
settings-creepers = { $count ->
    [0] Криперов в колоде нет
    [one] В колоде { $count } Крипер
    [few] В колоде { $count } Крипера
    [many] В колоде { $count } Криперов
   *[other] В колоде { $count } Крипера
}

## Statistics

stats-title = 📊 Лучшие игроки чата:
stats-empty = В этом чате ещё не сыграно ни одной игры.
## $points: the player's points, already worded (points-count and/or stats-tally-points).
stats-row = { $name } — { $wins ->
    [one] { $wins } победа
    [few] { $wins } победы
    [many] { $wins } побед
   *[other] { $wins } победы
} из { $games ->
    [one] { $games } игры
    [few] { $games } игр
    [many] { $games } игр
   *[other] { $games } игры
}, { $points }
## Points from games scored with `tally` (each counts their own cards: fewer is better).
stats-tally-points = { $count ->
    [one] { $count } штрафное очко
    [few] { $count } штрафных очка
    [many] { $count } штрафных очков
   *[other] { $count } штрафного очка
}

## Answers of the service

error-no-game = В этом чате сейчас нет игры. Начните её командой /new.
error-game-exists = В этом чате уже идёт игра или набор.
error-no-rematch = Реванш возможен только после доигранной партии. Новую игру можно открыть командой /new.
error-rematch-stale = Эта кнопка от одной из прошлых партий: реванш предлагается под итогами последней (или командой /rematch).
error-game-running = Игра уже началась: присоединиться можно к следующей.
error-already-joined = Вы уже в игре.
error-not-joined = Сначала присоединитесь к игре (/join).
error-lobby-closed = Набор закрыт.
error-lobby-full = Мест нет: за столом не больше 10 игроков, считая роботов.
error-not-enough-players = { $min ->
    [1] Нужен хотя бы один игрок, и это должен быть человек.
    [one] Нужно не меньше { $min } игрока, и хотя бы один из них — человек.
    [few] Нужно не меньше { $min } игроков, и хотя бы один из них — человек.
    [many] Нужно не меньше { $min } игроков, и хотя бы один из них — человек.
   *[other] Нужно не меньше { $min } игрока, и хотя бы один из них — человек.
}
error-not-allowed = Это может сделать только создатель игры или администратор чата.
error-not-in-game = Вы не участвуете в этой игре.
error-kick-target = Этого игрока нет в игре.
error-kick-seat = На этом месте никто не сидит: места считаются по порядку, как игроки перечислены за столом.
error-stale = Эти кнопки устарели — вот ваши карты сейчас.
error-bad-action = Такого хода нет.
error-conflict = Ход не засчитан: игра как раз изменилась. Попробуйте ещё раз.
error-bad-setting = Такой настройки нет.
error-wrong-chat = Эта команда работает только в групповом чате.
error-dm-closed = { $name }, откройте чат с ботом, чтобы видеть свои карты: нажмите кнопку ниже.
error-flood = Слишком много сообщений подряд: следующее придёт через { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунды
    [many] { $seconds } секунд
   *[other] { $seconds } секунды
}.

info-lobby-created = Набор открыт! Присоединяйтесь.
info-rematch = 🔁 Реванш! Набор открыт.
info-joined = { $name } в игре.
info-left = { $name } выходит из игры.
info-kicked = Игрок { $name } исключён из игры.
info-bot-added = Робот присоединился.
info-bot-removed = Робот исключён из игры.
info-lobby-closed = Набор закрыт.
info-lobby-opened = Набор снова открыт.
info-lobby-empty = Все вышли — набор отменён.
info-lobby-expired = ⌛ Игру так и не начали за { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
    [many] { $minutes } минут
   *[other] { $minutes } минуты
} — набор отменён. Новую игру можно открыть командой /new.
info-killed = Игра остановлена.
info-no-humans-left = В игре не осталось людей — игра остановлена.
info-settings-saved = Настройки сохранены.

## Console

console-you = Игрок
console-resumed = ▶️ Продолжаем сохранённую партию.
console-again = Сыграть ещё раз с теми же соперниками?
console-quit = 🚪 Выйти
console-wait = ⏳ Ничего не делать — пусть ходят другие
## What may be typed for `q` besides it (the key where q is on the keyboard's Cyrillic layout).
console-quit-keys = й
# What may be typed for `s` (the settings) and `r` (the rules) besides them, the same way.
console-settings-keys = ы
console-rules-keys = к
# After the rules, shown with `r`: back to the game.
console-rules-back = ↩️ Чтобы вернуться к игре, нажмите ↵{" "}
## $low, $high: the numbers that may be typed.
console-prompt = Ваш выбор ({ $low }–{ $high }; s — настройки, r — правила, q — выход):{" "}
console-prompt-back = Ваш выбор ({ $low }–{ $high }; 0 или q — назад):{" "}
console-bad-number = Введите число от { $low } до { $high }.
# The console's /settings: a numbered line per setting; choosing one changes it.
console-settings-title = ⚙️ Настройки стола. Правила и уровень роботов меняются со следующей партии, текущая доигрывается по прежним.
## A second step after choosing a card: its color (a wild card) or another choice the rules ask for.
console-choose-color = 🎨 Выберите цвет для карты { $card }:
console-choose-option = Как сыграть карту { $card }?
## Moves since the player's last turn that scroll out of sight: how many lines are above.
console-more-moves = ↑ ещё { $count ->
    [one] { $count } строка
    [few] { $count } строки
    [many] { $count } строк
   *[other] { $count } строки
} с ходами выше
## A saved match at start. $rules: the rules' name; $bots: computer players; $round: the round.
console-saved-match = 💾 Есть незаконченная партия: { $rules }, { $bots ->
    [one] { $bots } робот
    [few] { $bots } робота
    [many] { $bots } роботов
   *[other] { $bots } робота
}, раунд { $round }.
console-continue = ▶️ Продолжить её
console-start-new = 🆕 Начать новую: { $rules }, { $bots ->
    [one] { $bots } робот
    [few] { $bots } робота
    [many] { $bots } роботов
   *[other] { $bots } робота
} (незаконченная партия закончится без результата)
console-saved = 💾 Партия сохранена: следующий запуск продолжит её с этого места.
console-db-in-use = 🔒 В файле { $path } уже идёт игра в другом окне. Закройте её там или укажите другой файл: { $option }.
## Bad command-line arguments (one line, then the console exits). $help: the option that lists them.
console-arg-bots = Роботов может быть от { $min } до { $max }, а указано «{ $value }». Список аргументов: { $help }
console-arg-preset = Набора правил «{ $value }» нет; есть { $names }. Список аргументов: { $help }
console-arg-lang = Языка «{ $value }» нет; есть { $names }. Список аргументов: { $help }
console-arg-unknown = Такого аргумента нет: { $value }. Список аргументов: { $help }
console-arg-bad = Аргумент { $value } задан неверно. Список аргументов: { $help }
## The command line's help.
console-help-file = ФАЙЛ
console-help-usage = Запуск:
console-help-options = аргументы
console-help-help = показать эту справку
console-help = Бот УНО: с токенами Телеграма или Дискорда в настройках — бот для чатов, без них — партия в терминале против роботов.
console-help-console = партия в терминале, даже если токены заданы
console-help-lang = язык стола
console-help-preset = набор правил новой партии
console-help-bots = сколько роботов в новой партии (от 1 до 9)
console-help-db = файл базы данных партии в терминале
console-help-new = начать новую партию, даже если есть незаконченная
console-help-colorblind = режим для дальтоников: у каждого цвета ещё своя фигура и буква
