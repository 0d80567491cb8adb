# The group table, the lobby, the private hand, settings, statistics and the service's answers.

bot-name = 🤖 Робот { $number }
player-unknown = Гравець

## Table

table-title = 🎴 УНО · раунд { $round }
table-top = Зверху: { $card } · колір: { $color }
table-top-choosing = Зверху: { $card } · колір обирає перший гравець
table-direction-cw = ⟳ за годинниковою стрілкою
table-direction-ccw = ⟲ проти годинникової стрілки
table-draw-pile = у колоді { $count ->
    [one] { $count } картка
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
table-seat = { $name } — { $count ->
    [one] { $count } картка
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
} · { $score ->
    [one] { $score } очко
    [few] { $score } очки
    [many] { $score } очок
   *[other] { $score } очка
}
table-uno-mark = (УНО!)
table-turn = Ходить { $name }.
## A pending penalty. $answer: what the rules let the player do instead of taking the cards
## (`none`, `challenge`, `pass`, `defend`, `challenge-defend`; see Renderer.penalty_answer).
table-pending = { $name } має взяти { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}{ $answer ->
    [challenge] {" "}або перевірити «+4» на блеф
    [pass] {" "}або передати штраф своєю «Візьми дві»
    [defend] {" "}або відбитися карткою «Візьми дві» замовленого кольору
    [challenge-defend] , перевірити «+4» на блеф або відбитися карткою «Візьми дві» замовленого кольору
   *[none] {""}
}.
table-timer = ⏱ На хід { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунди
    [many] { $seconds } секунд
   *[other] { $seconds } секунди
}.
table-finished = 🏆 Гру завершено. { $count ->
    [1] Переможець
    [one] Переможці
    [few] Переможці
    [many] Переможці
   *[other] Переможці
}: { $names }
table-killed = Гру зупинено.
table-recent = Останні ходи:

## Lobby

lobby-title = 🎴 УНО — набір гравців
lobby-players = { $count ->
    [one] { $count } гравець:
    [few] { $count } гравці:
    [many] { $count } гравців:
   *[other] { $count } гравця:
}
lobby-rules = Правила: { $rules }
lobby-hint = Приєднуйтеся кнопкою або командою /join; коли всі зберуться — /start.
lobby-closed = 🔒 Набір закрито.
lobby-cancelled = Набір скасовано.
# A rematch: the people of the previous match, asked to join (they are not joined for them).
lobby-invited = 🔁 Реванш! { $count ->
    [1] Чекаємо на гравця минулої партії: { $names }.
    [one] Чекаємо на гравців минулої партії: { $names }.
    [few] Чекаємо на гравців минулої партії: { $names }.
    [many] Чекаємо на гравців минулої партії: { $names }.
   *[other] Чекаємо на гравців минулої партії: { $names }.
}
preset-custom = власні правила
# The computer players' level ($level: easy, strong). The line is shown once the lobby has a robot.
lobby-bot-level = 🤖 Рівень роботів: { $level ->
    [strong] сильний
   *[easy] простий
}
# The button names the level in force; a press switches to the other one.
btn-bot-level = 🤖 Роботи: { $level ->
    [strong] сильні
   *[easy] прості
}
info-bot-level = Роботи в цій партії гратимуть { $level ->
    [strong] сильно
   *[easy] простіше
}.

## Private hand

hand-title = 🃏 Ваші картки ({ $count ->
    [one] { $count } картка
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}):
hand-your-turn = ✅ Ваш хід: оберіть картку або візьміть з колоди.
hand-waiting = Ходить { $name }.
hand-waiting-quiet = ⏳ Зараз не ваш хід. Чий хід і яка картка зверху, видно на столі.
hand-out-of-turn = Можна зробити хід поза чергою.
## $answer: as in table-pending.
hand-pending = ⚠️ Вам треба взяти { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}{ $answer ->
    [challenge] {" "}або перевірити «+4» на блеф
    [pass] {" "}або передати штраф своєю «Візьми дві»
    [defend] {" "}або відбитися карткою «Візьми дві» замовленого кольору
    [challenge-defend] , перевірити «+4» на блеф або відбитися карткою «Візьми дві» замовленого кольору
   *[none] {""}
}.
hand-choose-color = 🎨 Перша картка — дика: оберіть колір.
hand-drawn = Ви взяли { $card }. Зіграйте її або пасуйте.
hand-left = Ви більше не берете участі в цій грі.
hand-finished = Гру завершено.

## Buttons

btn-draw = 📥 Взяти картку
btn-pass = ⏭ Пасувати
btn-accept = 📥 Взяти { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
btn-challenge = ⚖️ Перевірити на блеф
btn-uno = 📣 УНО!
btn-catch = 🫵 Спіймати!
btn-join = ➕ Приєднатися
btn-addbot = 🤖 Додати робота
btn-start = ▶️ Почати
btn-my-cards = 🃏 Мої картки
btn-open-dm = 💬 Відкрити чат із ботом
btn-back = ↩️ Назад
btn-rematch = 🔁 Реванш

## Settings

value-on = увімк.
value-off = вимк.
lang-ru = російська
lang-uk = українська
settings-title = ⚙️ Налаштування чату
settings-preset = Правила: { $preset }
settings-lang = Мова: { $language }
settings-timer = Таймер ходу: { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунди
    [many] { $seconds } секунд
   *[other] { $seconds } секунди
}
settings-timer-off = Таймер ходу: вимкнено
settings-colorblind = Режим для дальтоніків: { $value }
settings-strong-bots = 🤖 Сильні роботи: { $value }
settings-scoring = Підрахунок очок: { $scoring }
settings-target = Гра до { $count ->
    [one] { $count } очка
    [few] { $count } очок
    [many] { $count } очок
   *[other] { $count } очка
}
settings-creepers = { $count ->
    [0] Кріперів у колоді немає
    [one] У колоді { $count } Кріпер
    [few] У колоді { $count } Кріпери
    [many] У колоді { $count } Кріперів
   *[other] У колоді { $count } Кріпера
}

## Statistics

stats-title = 📊 Найкращі гравці чату:
stats-empty = У цьому чаті ще не зіграно жодної гри.
## $points: the player's points, already worded (points-count and/or stats-tally-points).
stats-row = { $name } — { $wins ->
    [one] { $wins } перемога
    [few] { $wins } перемоги
    [many] { $wins } перемог
   *[other] { $wins } перемоги
} з { $games ->
    [one] { $games } гри
    [few] { $games } ігор
    [many] { $games } ігор
   *[other] { $games } гри
}, { $points }
## Points from games scored with `tally` (each counts their own cards: fewer is better).
stats-tally-points = { $count ->
    [one] { $count } штрафне очко
    [few] { $count } штрафні очки
    [many] { $count } штрафних очок
   *[other] { $count } штрафного очка
}

## Answers of the service

error-no-game = У цьому чаті зараз немає гри. Почніть її командою /new.
error-game-exists = У цьому чаті вже йде гра або набір.
error-no-rematch = Реванш можливий лише після дограної партії. Нову гру можна відкрити командою /new.
error-rematch-stale = Ця кнопка від однієї з минулих партій: реванш пропонується під підсумками останньої (або командою /rematch).
error-game-running = Гра вже почалася: приєднатися можна до наступної.
error-already-joined = Ви вже в грі.
error-not-joined = Спершу приєднайтеся до гри (/join).
error-lobby-closed = Набір закрито.
error-lobby-full = Місць немає: за столом не більше 10 гравців разом із роботами.
error-not-enough-players = { $min ->
    [1] Потрібен хоча б один гравець, і це має бути людина.
    [one] Потрібно щонайменше { $min } гравець, і хоча б один із них — людина.
    [few] Потрібно щонайменше { $min } гравці, і хоча б один із них — людина.
    [many] Потрібно щонайменше { $min } гравців, і хоча б один із них — людина.
   *[other] Потрібно щонайменше { $min } гравця, і хоча б один із них — людина.
}
error-not-allowed = Це може зробити лише творець гри або адміністратор чату.
error-not-in-game = Ви не берете участі в цій грі.
error-kick-target = Цього гравця немає в грі.
error-kick-seat = На цьому місці ніхто не сидить: місця рахують за порядком, як гравців перелічено за столом.
error-stale = Ці кнопки застаріли — ось ваші картки зараз.
error-bad-action = Такого ходу немає.
error-conflict = Хід не зараховано: гра саме змінилася. Спробуйте ще раз.
error-bad-setting = Такого налаштування немає.
error-wrong-chat = Ця команда працює лише в груповому чаті.
error-dm-closed = { $name }, відкрийте чат із ботом, щоб бачити свої картки: натисніть кнопку нижче.
error-flood = Забагато повідомлень поспіль: наступне надійде за { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунди
    [many] { $seconds } секунд
   *[other] { $seconds } секунди
}.

info-lobby-created = Набір відкрито! Приєднуйтеся.
info-rematch = 🔁 Реванш! Набір відкрито.
info-joined = { $name } у грі.
info-left = { $name } виходить із гри.
info-kicked = Гравця { $name } виключено з гри.
info-bot-added = Робот приєднався.
info-bot-removed = Робота виключено з гри.
info-lobby-closed = Набір закрито.
info-lobby-opened = Набір знову відкрито.
info-lobby-empty = Усі вийшли — набір скасовано.
info-lobby-expired = ⌛ Гру так і не почали за { $minutes ->
    [one] { $minutes } хвилину
    [few] { $minutes } хвилини
    [many] { $minutes } хвилин
   *[other] { $minutes } хвилини
} — набір скасовано. Нову гру можна відкрити командою /new.
info-killed = Гру зупинено.
info-no-humans-left = У грі не лишилося людей — гру зупинено.
info-settings-saved = Налаштування збережено.

## Console

console-you = Гравець
console-resumed = ▶️ Продовжуємо збережену партію.
console-again = Зіграти ще раз із тими самими суперниками?
console-quit = 🚪 Вийти
console-wait = ⏳ Нічого не робити — хай ходять інші
## What may be typed for `q` besides it (the key where q is on the keyboard's Cyrillic layout).
console-quit-keys = й
# What may be typed for `s` (the settings) and `r` (the rules) besides them, the same way.
console-settings-keys = і
console-rules-keys = к
# After the rules, shown with `r`: back to the game.
console-rules-back = ↩️ Щоб повернутися до гри, натисніть ↵{" "}
## $low, $high: the numbers that may be typed.
console-prompt = Ваш вибір ({ $low }–{ $high }; s — налаштування, r — правила, q — вихід):{" "}
console-prompt-back = Ваш вибір ({ $low }–{ $high }; 0 або q — назад):{" "}
console-bad-number = Введіть число від { $low } до { $high }.
# The console's /settings: a numbered line per setting; choosing one changes it.
console-settings-title = ⚙️ Налаштування столу. Правила й рівень роботів зміняться з наступної партії, поточна догравається за попередніми.
## A second step after choosing a card: its color (a wild card) or another choice the rules ask for.
console-choose-color = 🎨 Оберіть колір для картки { $card }:
console-choose-option = Як зіграти картку { $card }?
## Moves since the player's last turn that scroll out of sight: how many lines are above.
console-more-moves = ↑ ще { $count ->
    [one] { $count } рядок
    [few] { $count } рядки
    [many] { $count } рядків
   *[other] { $count } рядка
} з ходами вище
## A saved match at start. $rules: the rules' name; $bots: computer players; $round: the round.
console-saved-match = 💾 Є незавершена партія: { $rules }, { $bots ->
    [one] { $bots } робот
    [few] { $bots } роботи
    [many] { $bots } роботів
   *[other] { $bots } робота
}, раунд { $round }.
console-continue = ▶️ Продовжити її
console-start-new = 🆕 Почати нову: { $rules }, { $bots ->
    [one] { $bots } робот
    [few] { $bots } роботи
    [many] { $bots } роботів
   *[other] { $bots } робота
} (незавершена партія закінчиться без результату)
console-saved = 💾 Партію збережено: наступний запуск продовжить її з цього місця.
console-db-in-use = 🔒 У файлі { $path } уже йде гра в іншому вікні. Закрийте її там або вкажіть інший файл: { $option }.
## Bad command-line arguments (one line, then the console exits). $help: the option that lists them.
console-arg-bots = Роботів може бути від { $min } до { $max }, а вказано «{ $value }». Список аргументів: { $help }
console-arg-preset = Набору правил «{ $value }» немає; є { $names }. Список аргументів: { $help }
console-arg-lang = Мови «{ $value }» немає; є { $names }. Список аргументів: { $help }
console-arg-unknown = Такого аргументу немає: { $value }. Список аргументів: { $help }
console-arg-bad = Аргумент { $value } задано неправильно. Список аргументів: { $help }
## The command line's help.
console-help-file = ФАЙЛ
console-help-usage = Запуск:
console-help-options = аргументи
console-help-help = показати цю довідку
console-help = Бот УНО: з токенами Телеграма чи Дискорда в налаштуваннях — бот для чатів, без них — партія в терміналі проти роботів.
console-help-console = партія в терміналі, навіть якщо токени задано
console-help-lang = мова столу
console-help-preset = набір правил нової партії
console-help-bots = скільки роботів у новій партії (від 1 до 9)
console-help-db = файл бази даних партії в терміналі
console-help-new = почати нову партію, навіть якщо є незавершена
console-help-colorblind = режим для дальтоніків: у кожного кольору ще своя фігура й літера
