# Both adapters: the second step of a two-step move (a wild card's color, the player a 7 swaps
# hands with under the seven-zero option).

step-color-title = 🎨 Выберите цвет для карты { $card }:
step-swap-title = 🔄 Вы играете { $card }. С кем поменяться картами?
