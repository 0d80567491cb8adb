### Cards: colors, short labels, full names, counts.
### The words follow RULES.md section 7.

## Color names (as in "Цвет: красный").
color-red = красный
color-yellow = жёлтый
color-green = зелёный
color-blue = синий

## The color said of a card (agrees with "карта"): "красная 7".
color-red-card = красная
color-yellow-card = жёлтая
color-green-card = зелёная
color-blue-card = синяя

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
color-red-letter = К
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
card-name-skip = { $color } карта «Пропуск хода»
card-name-reverse = { $color } карта «Смена направления» (Реверс)
card-name-draw-two = { $color } карта «Возьми две» (+2)
card-name-wild = «Закажи цвет» (Дикая карта)
card-name-wild-four = «Закажи цвет и возьми четыре» (+4)
card-name-creeper = Крипер
## $card: the full name of a wild card; $color: the chosen color's name.
card-name-wild-chosen = { $card }, цвет: { $color }

## Counts.
cards-count = { $count ->
    [one] { $count } карта
    [few] { $count } карты
    [many] { $count } карт
   *[other] { $count } карты
}
points-count = { $count ->
    [one] { $count } очко
    [few] { $count } очка
    [many] { $count } очков
   *[other] { $count } очка
}

## A list of names: $rest (already joined with commas) and $last.
list-and = { $rest } и { $last }
