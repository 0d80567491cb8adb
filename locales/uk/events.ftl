### One line of the table log per engine event (bot/presentation/event_text.py).
### $player and the other names are display names; $card is a short card label;
### $color is a color name and $swatch its mark; $count is always a number.

## Choosing the first dealer: everyone draws a card, the highest number deals.
event-dealer-card-drawn = Хто роздаватиме: { $player } тягне { $card }
event-dealer-chosen = Роздає { $player }

## $number: the round's number; $count: cards dealt to each player.
event-round-started = Раунд { $number }. { $dealer } роздає кожному { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}

event-first-card-returned = { $card } не може відкрити раунд і повертається до колоди
event-first-card-flipped = Перша картка: { $card }

## $left: the rendered event-cards-left.
event-card-played = { $player } кладе { $card } ({ $left })
event-card-played-wild = { $player } кладе { $card } і замовляє { $color } ({ $left })
event-card-played-jump-in = { $player } перехоплює хід і кладе { $card } ({ $left })
event-cards-left = { $count ->
    [0] карток не залишилося
    [one] залишилася { $count } картка
    [few] залишилося { $count } картки
    [many] залишилося { $count } карток
   *[other] залишилося { $count } картки
}

## The first player chose the color for a wild first card.
event-color-chosen = { $player } обирає колір: { $swatch } { $color }

## Drawing, one message per reason. The table sees only the count.
event-cards-drawn-choice = { $count ->
    [1] { $player } бере картку з колоди
    [one] { $player } бере з колоди { $count } картку
    [few] { $player } бере з колоди { $count } картки
    [many] { $player } бере з колоди { $count } карток
   *[other] { $player } бере з колоди { $count } картки
}
event-cards-drawn-draw-two = «Візьми дві»: { $player } бере { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
event-cards-drawn-wild-four = «+4»: { $player } бере { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
event-cards-drawn-challenge-guilty = Штраф за блеф: { $player } бере { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
event-cards-drawn-challenge-innocent = Штраф за марну перевірку: { $player } бере { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
event-cards-drawn-uno-caught = Спіймали без УНО: { $player } бере { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
event-cards-drawn-creeper = Кріпер вибухає: { $player } бере ще { $count ->
    [one] { $count } картку
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
## Nothing left to draw (draw pile and discard pile are both spent).
event-cards-drawn-none = { $player }: нема чого брати, колода порожня
## The drawer's own view: $line is the public line, $cards the drawn cards.
event-cards-drawn-own = { $line }. Ви взяли: { $cards }

event-creeper-revealed = 💥 { $player } витягує Кріпера й показує його всім!
event-pile-reshuffled = Скид перетасовано в нову колоду: { $count ->
    [one] { $count } картка
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
event-player-skipped = { $player } пропускає хід
## $direction: clockwise or counterclockwise.
event-direction-changed = { $direction ->
    [clockwise] Напрямок змінився: тепер за годинниковою стрілкою ↻
   *[counterclockwise] Напрямок змінився: тепер проти годинникової стрілки ↺
}

## $card is played on $target, who must take $count cards unless they answer it (the table
## and the hand name the answers the rules allow).
event-penalty-pending = { $card } на гравця { $target }: штраф — { $count ->
    [one] { $count } картка
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
event-passed = { $player } пасує
event-uno-called = { $player }: «УНО!»
event-uno-caught = { $player } забуває сказати УНО, і { $catcher } це помічає!
## The verdict only: the penalty is the next line (event-cards-drawn-challenge-*).
event-challenge-guilty = { $challenger } перевіряє «+4» гравця { $offender } на блеф: блеф викрито!
event-challenge-innocent = { $challenger } перевіряє «+4» гравця { $offender } на блеф: усе чесно, блефу не було.
## Only the challenger sees this. $cards: the challenged player's hand.
event-hand-revealed = Картки гравця { $owner }: { $cards }
event-wild-four-taken-back = { $player } забирає «+4» назад у руку, колір знову { $swatch } { $color }
## $count: the leaver's cards, put back under the draw pile.
event-player-left = { $count ->
    [0] { $player } виходить із гри
    [one] { $player } виходить із гри, { $count } картка йде під колоду
    [few] { $player } виходить із гри, { $count } картки йдуть під колоду
    [many] { $player } виходить із гри, { $count } карток іде під колоду
   *[other] { $player } виходить із гри, { $count } картки йде під колоду
}

## The round's winner; event-round-ended* add the score, event-round-won* stand alone when the
## match's result follows with the final score. $count: the points the winner scores this round.
event-round-won = { $winner } виграє раунд!
event-round-won-points = { $winner } виграє раунд і отримує { $count ->
    [one] { $count } очко
    [few] { $count } очки
    [many] { $count } очок
   *[other] { $count } очка
}!
## $scores: a list of score-entry.
event-round-ended = { event-round-won } Рахунок: { $scores }
event-round-ended-points = { event-round-won-points } Рахунок: { $scores }
## $count: the number of winners (more than one when the win is shared); $winners: their names.
event-game-ended = { $count ->
    [1] { $winners } виграє гру!
    [one] Перемогу ділять { $winners }!
    [few] Перемогу ділять { $winners }!
    [many] Перемогу ділять { $winners }!
   *[other] Перемогу ділять { $winners }!
} Підсумковий рахунок: { $scores }
score-entry = { $player } — { $count ->
    [one] { $count } очко
    [few] { $count } очки
    [many] { $count } очок
   *[other] { $count } очка
}
event-round-blocked = Ніхто не може ні зіграти, ні взяти картку: раунд завершено, перемагає той, у кого на руці найменше очок.
