### Why an action was refused: one message per IllegalAction.reason code (core/errors.py),
### id reason-<code with - for _>.

reason-game-over = Игра уже закончилась
reason-not-a-player = Вы не участвуете в этой игре
reason-not-your-turn = Сейчас не ваш ход
reason-turn-taken-by-jump-in = Вас опередили: кто-то только что перехватил ход такой же картой
reason-card-not-in-hand = У вас нет такой карты
reason-does-not-match = Эта карта не подходит: нужен тот же цвет, то же число или тот же символ
reason-wild-needs-color = Сначала выберите цвет для этой карты
reason-color-not-allowed = Цвет заказывают только с дикой картой
reason-wild-four-not-allowed = Блеф в этой игре выключен: у вас есть карта текущего цвета, поэтому «+4» класть нельзя
reason-must-choose-color = Первая карта раунда дикая: сначала выберите цвет
reason-nothing-to-choose = Сейчас не нужно выбирать цвет
reason-must-answer-penalty = Сначала разберитесь со штрафом: возьмите карты, а если правила позволяют — проверьте «+4» на блеф или отбейтесь картой
reason-not-an-answer = Этой картой от штрафа не отбиться
reason-only-drawn-card = После того как вы взяли карту, сыграть можно только её
reason-already-drawn = Вы уже взяли карту в этот ход
reason-must-draw-first = Пасовать можно только после того, как вы взяли карту
reason-nothing-to-accept = Штрафа нет, брать нечего
reason-nothing-to-challenge = Сейчас нечего проверять на блеф
reason-not-your-challenge = Проверить «+4» на блеф может только тот, кому брать эти карты
reason-uno-not-now = УНО говорят в свой ход, когда на руке две карты, или сразу после хода, когда осталась одна
reason-uno-already-called = Вы уже сказали УНО
reason-nothing-to-catch = Ловить некого: все, у кого одна карта, сказали УНО
reason-cannot-catch-yourself = Себя поймать нельзя
reason-jump-in-off = Сейчас не ваш ход, а перехват хода в этих правилах выключен
reason-jump-in-needs-identical = Перехватить ход можно только точно такой же картой: тот же цвет и то же число или символ
reason-jump-in-not-on-first-card = На первую карту раунда перехватывать ход нельзя
reason-jump-in-not-with-wild = Дикой картой перехватывать ход нельзя
reason-one-draw-card-per-turn = За один ход можно положить только одну карту «+2» или «+4»: перехватить свою же карту можно, только когда после неё сделает ход кто-то другой
## A code this version does not know yet.
reason-unknown = Так сейчас нельзя
