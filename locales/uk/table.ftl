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
table-pending = { $name } має взяти { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
} або відповісти.
table-timer = ⏱ На хід { $seconds ->
    [one] { $seconds } секунда
    [few] { $seconds } секунди
    [many] { $seconds } секунд
   *[other] { $seconds } секунди
}.
table-finished = 🏆 Гру завершено. { $count ->
    [one] Переможець
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
lobby-hint = Приєднуйтеся кнопкою або командою /join, потім /start.
lobby-closed = 🔒 Набір закрито.
lobby-cancelled = Набір скасовано.
# A rematch: the people of the previous match, asked to join (they are not joined for them).
lobby-invited = 🔁 Реванш! { $count ->
    [one] Чекаємо на гравця минулої партії: { $names }.
    [few] Чекаємо на гравців минулої партії: { $names }.
    [many] Чекаємо на гравців минулої партії: { $names }.
   *[other] Чекаємо на гравців минулої партії: { $names }.
}
preset-custom = власні правила

## Private hand

hand-title = 🃏 Ваші картки ({ $count ->
    [one] { $count } картка
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}):
hand-your-turn = ✅ Ваш хід: оберіть картку або візьміть з колоди.
hand-waiting = Ходить { $name }.
hand-out-of-turn = Можна походити поза чергою.
hand-pending = ⚠️ Вам треба взяти { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
} — або відповісти.
hand-choose-color = 🎨 Перша картка — дика: оберіть колір.
hand-drawn = Ви взяли { $card }. Зіграти її чи пропустити хід?
hand-left = Ви більше не берете участі в цій грі.
hand-finished = Гру завершено.

## Buttons

btn-draw = 📥 Взяти картку
btn-pass = ⏭ Пропустити
btn-accept = 📥 Взяти { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
btn-challenge = ⚖️ Оскаржити
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
settings-scoring = Підрахунок очок: { $scoring }
settings-target = Гра до { $count ->
    [one] { $count } очка
    [few] { $count } очок
    [many] { $count } очок
   *[other] { $count } очка
}
settings-creepers = Кріперів у колоді: { $count ->
    [one] { $count } картка
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
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
error-lobby-full = Місць немає: грати можуть не більше 10 осіб.
error-not-enough-players = Потрібно щонайменше { $min ->
    [one] { $min } живий гравець і суперник
    [few] { $min } гравці, і хоча б один із них людина
    [many] { $min } гравців, і хоча б один із них людина
   *[other] { $min } гравця, і хоча б один із них людина
}.
error-not-allowed = Це може зробити лише творець гри або адміністратор чату.
error-not-in-game = Ви не берете участі в цій грі.
error-kick-target = Цього гравця немає в грі.
error-kick-seat = На цьому місці ніхто не сидить: місця лічать по порядку, як гравців перелічено за столом.
error-stale = Ці кнопки застаріли — ось ваші картки зараз.
error-bad-action = Такого ходу немає.
error-conflict = Хід не зараховано: гра саме змінилася. Спробуйте ще раз.
error-bad-setting = Такого налаштування немає.
error-wrong-chat = Ця команда працює лише в груповому чаті.
error-dm-closed = { $name }, відкрийте чат із ботом, щоб бачити свої картки: натисніть кнопку нижче.
error-flood = Платформа просить зачекати — повідомлення надійде за { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунди
    [many] { $seconds } секунд
   *[other] { $seconds } секунди
}.

info-lobby-created = Набір відкрито! Приєднуйтеся.
info-rematch = 🔁 Реванш! Набір відкрито.
info-joined = { $name } у грі.
info-left = { $name } виходить із гри.
info-kicked = { $name } більше не в грі: виключення.
info-bot-added = Робот приєднався.
info-bot-removed = Робот більше не в грі: виключення.
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
console-resumed = Продовжуємо збережену партію.
console-again = Зіграти ще раз із тими самими суперниками?
console-quit = 🚪 Вийти
console-wait = ⏳ Нічого не робити — хай ходять інші
console-prompt = Ваш вибір ({ $low }–{ $high ->
    [one] { $high }
    [few] { $high }
    [many] { $high }
   *[other] { $high }
}, q — вихід): 
console-bad-number = Введіть число від { $low } до { $high ->
    [one] { $high }
    [few] { $high }
    [many] { $high }
   *[other] { $high }
}.
