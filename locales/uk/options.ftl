### The options from other tables (RULES.md section 6): option names and help for /settings and
### /rules, the refusals and the event lines they bring. Keys follow rules.ftl, reasons.ftl and
### events.ftl.

## Options: opt-<Rules field, as is> is the name, opt-<field>-help a short explanation.
opt-stacking = Накопичення штрафів
opt-stacking-help = На «Візьми дві» можна відповісти своєю «Візьми дві», на «+4» — своєю «+4» (але не одну на іншу). Штрафи додаються, і всю суму бере той, хто не може або не хоче продовжити ланцюжок. Замінює передачу «Візьми дві» і захист від «+4».
opt-seven_zero = Сім і нуль
opt-seven_zero-help = Зігравши сімку, ви обмінюєтеся картками з будь-яким гравцем на свій вибір. Зігравши нуль, усі передають свої картки сусідові за напрямком гри.
opt-draw_until_playable = Брати до придатної
opt-draw_until_playable-help = Хто бере картку з колоди, бере, доки не трапиться придатна; її можна одразу зіграти або залишити. Штрафи не змінюються.

## Refusals: reason-<code with - for _>.
reason-seven-needs-target = Зігравши сімку, виберіть, з ким обмінятися картками
reason-target-not-allowed = Вибрати гравця можна лише для сімки, коли ввімкнене правило «Сім і нуль»
reason-not-a-target = З цим гравцем обмінятися картками не можна: виберіть іншого учасника гри

## $player played a 7 and swapped hands with $other.
event-hands-swapped = { $player } обмінюється картками з гравцем { $other }
## A 0 was played: every hand moves one seat on. $direction: clockwise or counterclockwise.
event-hands-passed = { $direction ->
    [clockwise] Нуль! Усі передають свої картки сусідові за годинниковою стрілкою ↻
   *[counterclockwise] Нуль! Усі передають свої картки сусідові проти годинникової стрілки ↺
}
## $player ran out of time for the $count-th time in a row; at the third they leave the game.
event-timed-out = { $count ->
    [1] Час вийшов: за гравця { $player } хід зроблено автоматично.
    [one] Час вийшов: { $player } уже { $count } раз поспіль не встигає зробити хід.
    [few] Час вийшов: { $player } уже { $count } рази поспіль не встигає зробити хід.
    [many] Час вийшов: { $player } уже { $count } разів поспіль не встигає зробити хід.
   *[other] Час вийшов: { $player } уже { $count } рази поспіль не встигає зробити хід.
}
