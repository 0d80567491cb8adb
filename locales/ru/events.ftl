### One line of the table log per engine event (bot/presentation/event_text.py).
### $player and the other names are display names; $card is a short card label;
### $color is a color name and $swatch its mark; $count is always a number.

## Choosing the first dealer: everyone draws a card, the highest number deals.
event-dealer-card-drawn = Выбор раздающего: { $player } тянет { $card }
event-dealer-chosen = Раздаёт { $player }

## $number: the round's number; $count: cards dealt to each player.
event-round-started = Раунд { $number }. { $dealer } раздаёт каждому { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}

event-first-card-returned = { $card } не может открыть раунд и уходит обратно в колоду
event-first-card-flipped = Первая карта: { $card }

## $left: the rendered event-cards-left.
event-card-played = { $player } кладёт { $card } ({ $left })
event-card-played-wild = { $player } кладёт { $card } и заказывает { $color } ({ $left })
event-card-played-jump-in = { $player } перехватывает ход и кладёт { $card } ({ $left })
event-cards-left = { $count ->
    [0] карт не осталось
    [one] осталась { $count } карта
    [few] осталось { $count } карты
    [many] осталось { $count } карт
   *[other] осталось { $count } карты
}

## The first player chose the color for a wild first card.
event-color-chosen = { $player } выбирает цвет: { $swatch } { $color }

## Drawing, one message per reason. The table sees only the count.
event-cards-drawn-choice = { $count ->
    [1] { $player } берёт карту из колоды
    [one] { $player } берёт из колоды { $count } карту
    [few] { $player } берёт из колоды { $count } карты
    [many] { $player } берёт из колоды { $count } карт
   *[other] { $player } берёт из колоды { $count } карты
}
event-cards-drawn-draw-two = «Возьми две»: { $player } берёт { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
event-cards-drawn-wild-four = «+4»: { $player } берёт { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
event-cards-drawn-challenge-guilty = Штраф за блеф: { $player } берёт { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
event-cards-drawn-challenge-innocent = Штраф за напрасную проверку: { $player } берёт { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
event-cards-drawn-uno-caught = Поймали без УНО: { $player } берёт { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
event-cards-drawn-creeper = Крипер взрывается: { $player } берёт ещё { $count ->
    [one] { $count } карту
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
## Nothing left to draw (draw pile and discard pile are both spent).
event-cards-drawn-none = { $player }: брать нечего, колода пуста
## The drawer's own view: $line is the public line, $cards the drawn cards.
event-cards-drawn-own = { $line }. Вы взяли: { $cards }

event-creeper-revealed = 💥 { $player } вытягивает Крипера и показывает его всем!
event-pile-reshuffled = Сброс перемешан в новую колоду: { $count ->
    [one] { $count } карта
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
event-player-skipped = { $player } пропускает ход
## $direction: clockwise or counterclockwise.
event-direction-changed = { $direction ->
    [clockwise] Направление сменилось: теперь по часовой стрелке ↻
   *[counterclockwise] Направление сменилось: теперь против часовой стрелки ↺
}

## $card is played on $target, who must take $count cards unless they answer it (the table
## and the hand name the answers the rules allow).
event-penalty-pending = { $card } на игрока { $target }: штраф — { $count ->
    [one] { $count } карта
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
event-passed = { $player } пасует
event-uno-called = { $player }: «УНО!»
event-uno-caught = { $player } забывает сказать УНО, и { $catcher } это замечает!
## The verdict only: the penalty is the next line (event-cards-drawn-challenge-*).
event-challenge-guilty = { $challenger } проверяет «+4» игрока { $offender } на блеф: блеф раскрыт!
event-challenge-innocent = { $challenger } проверяет «+4» игрока { $offender } на блеф: всё честно, блефа не было.
## Only the challenger sees this. $cards: the challenged player's hand.
event-hand-revealed = Карты игрока { $owner }: { $cards }
event-wild-four-taken-back = { $player } забирает «+4» обратно в руку, цвет снова { $swatch } { $color }
## $count: the leaver's cards, put back under the draw pile.
event-player-left = { $count ->
    [0] { $player } выходит из игры
    [one] { $player } выходит из игры, { $count } карта уходит под колоду
    [few] { $player } выходит из игры, { $count } карты уходят под колоду
    [many] { $player } выходит из игры, { $count } карт уходит под колоду
   *[other] { $player } выходит из игры, { $count } карты уходит под колоду
}

## The round's winner; event-round-ended* add the score, event-round-won* stand alone when the
## match's result follows with the final score. $count: the points the winner scores this round.
event-round-won = { $winner } выигрывает раунд!
event-round-won-points = { $winner } выигрывает раунд и получает { $count ->
    [one] { $count } очко
    [few] { $count } очка
    [many] { $count } очков
   *[other] { $count } очка
}!
## $scores: a list of score-entry.
event-round-ended = { event-round-won } Счёт: { $scores }
event-round-ended-points = { event-round-won-points } Счёт: { $scores }
## $count: the number of winners (more than one when the win is shared); $winners: their names.
event-game-ended = { $count ->
    [1] { $winners } выигрывает игру!
    [one] Победу делят { $winners }!
    [few] Победу делят { $winners }!
    [many] Победу делят { $winners }!
   *[other] Победу делят { $winners }!
} Итоговый счёт: { $scores }
score-entry = { $player } — { $count ->
    [one] { $count } очко
    [few] { $count } очка
    [many] { $count } очков
   *[other] { $count } очка
}
event-round-blocked = Никто не может ни сыграть, ни взять карту: раунд окончен, побеждает тот, у кого на руке меньше всего очков.
