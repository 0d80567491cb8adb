### The options from other tables (RULES.md section 6): option names and help for /settings and
### /rules, the refusals and the event lines they bring. Keys follow rules.ftl, reasons.ftl and
### events.ftl.

## Options: opt-<Rules field, as is> is the name, opt-<field>-help a short explanation.
opt-stacking = Накопление штрафов
opt-stacking-help = На «Возьми две» можно ответить своей «Возьми две», на «+4» — своей «+4» (но не одну на другую). Штрафы складываются, и всю сумму берёт тот, кто не может или не хочет продолжить цепочку. Заменяет передачу «Возьми две» и защиту от «+4».
opt-seven_zero = Семь и ноль
opt-seven_zero-help = Сыграв семёрку, вы меняетесь картами с любым игроком по своему выбору. Сыграв ноль, все передают свои карты соседу по направлению игры.
opt-draw_until_playable = Брать до подходящей
opt-draw_until_playable-help = Кто берёт карту из колоды, берёт, пока не попадётся подходящая; её можно сразу сыграть или оставить. Штрафы не меняются.

## Refusals: reason-<code with - for _>.
reason-seven-needs-target = Сыграв семёрку, выберите, с кем поменяться картами
reason-target-not-allowed = Выбрать игрока можно только для семёрки, когда включено правило «Семь и ноль»
reason-not-a-target = С этим игроком поменяться картами нельзя: выберите другого участника игры

## $player played a 7 and swapped hands with $other.
event-hands-swapped = { $player } меняется картами с игроком { $other }
## A 0 was played: every hand moves one seat on. $direction: clockwise or counterclockwise.
event-hands-passed = { $direction ->
    [clockwise] Ноль! Все передают свои карты соседу по часовой стрелке ↻
   *[counterclockwise] Ноль! Все передают свои карты соседу против часовой стрелки ↺
}
## $player ran out of time for the $count-th time in a row; at the third they leave the game.
event-timed-out = { $count ->
    [1] Время вышло: за игрока { $player } ход сделан автоматически.
    [one] Время вышло: { $player } уже { $count } раз подряд не успевает сделать ход.
    [few] Время вышло: { $player } уже { $count } раза подряд не успевает сделать ход.
    [many] Время вышло: { $player } уже { $count } раз подряд не успевает сделать ход.
   *[other] Время вышло: { $player } уже { $count } раза подряд не успевает сделать ход.
}
