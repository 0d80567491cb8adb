# Both adapters: the second step of a two-step move (a wild card's color, the player a 7 swaps
# hands with under the seven-zero option).

step-color-title = 🎨 Оберіть колір для картки { $card }:
step-swap-title = 🔄 Ви граєте { $card }. З ким помінятися картками?
