### Cards: colors, short labels, full names, counts.
### The words follow RULES.md section 7.

## Color names (as in "Колір: червоний").
color-red = червоний
color-yellow = жовтий
color-green = зелений
color-blue = синій

## The color said of a card (agrees with "картка"): "червона 7".
color-red-card = червона
color-yellow-card = жовта
color-green-card = зелена
color-blue-card = синя

## Color swatches.
color-red-emoji = 🟥
color-yellow-emoji = 🟨
color-green-emoji = 🟩
color-blue-emoji = 🟦

## Color-blind mode: every color also has its own shape and the first letter of its name,
## so that no information is carried by color alone (our own scheme, not ColorADD).
color-red-shape = ▲
color-yellow-shape = ●
color-green-shape = ■
color-blue-shape = ◆
color-red-letter = Ч
color-yellow-letter = Ж
color-green-letter = З
color-blue-letter = С

## $emoji, $shape, $letter: the parts above.
card-swatch = { $emoji }
card-swatch-colorblind = { $emoji }{ $shape }{ $letter }

## Symbols of the cards that have no number.
card-symbol-skip = ⊘
card-symbol-reverse = ⇄
card-symbol-draw-two = +2
card-symbol-wild = 🌈
card-symbol-wild-four = 🌈 +4
card-symbol-creeper = 💥

## Short labels. $swatch: a color swatch; $symbol: a number or a symbol above.
card-label = { $swatch } { $symbol }
card-label-wild = { $symbol }
## A played wild card with its chosen color.
card-label-wild-chosen = { $symbol }→{ $swatch }

## Full names. $color: the color said of a card (color-*-card); $value: the digit.
card-name-number = { $color } { $value }
card-name-skip = { $color } картка «Пропуск ходу»
card-name-reverse = { $color } картка «Зміна напрямку» (Реверс)
card-name-draw-two = { $color } картка «Візьми дві» (+2)
card-name-wild = Дика карта (Замов колір)
card-name-wild-four = Дика карта «Візьми чотири» (+4)
card-name-creeper = Кріпер
## $card: the full name of a wild card; $color: the chosen color's name.
card-name-wild-chosen = { $card }, колір: { $color }

## Counts.
cards-count = { $count ->
    [one] { $count } картка
    [few] { $count } картки
    [many] { $count } карток
   *[other] { $count } картки
}
points-count = { $count ->
    [one] { $count } очко
    [few] { $count } очки
    [many] { $count } очок
   *[other] { $count } очка
}

## A list of names: $rest (already joined with commas) and $last.
list-and = { $rest } і { $last }
