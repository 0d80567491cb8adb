### Why an action was refused: one message per IllegalAction.reason code (core/errors.py),
### id reason-<code with - for _>.

reason-game-over = Гра вже закінчилася
reason-not-a-player = Ви не берете участі в цій грі
reason-not-your-turn = Зараз не ваш хід
reason-turn-taken-by-jump-in = Вас випередили: хтось щойно перехопив хід такою самою карткою
reason-card-not-in-hand = У вас немає такої картки
reason-does-not-match = Ця картка не підходить: потрібен той самий колір, те саме число або той самий символ
reason-wild-needs-color = Спершу оберіть колір для цієї картки
reason-color-not-allowed = Колір замовляють лише з дикою картою
reason-wild-four-not-allowed = Блеф у цій грі вимкнено: у вас є картка поточного кольору, тому «+4» класти не можна
reason-must-choose-color = Перша картка раунду дика: спершу оберіть колір
reason-nothing-to-choose = Зараз не треба обирати колір
reason-must-answer-penalty = Спершу розберіться зі штрафом: візьміть картки, а якщо правила дозволяють — перевірте «+4» на блеф або відбийтеся карткою
reason-not-an-answer = Цією карткою штрафу не відбити
reason-only-drawn-card = Після того як ви взяли картку, зіграти можна лише її
reason-already-drawn = Ви вже взяли картку за цей хід
reason-must-draw-first = Пасувати можна лише після того, як ви взяли картку
reason-nothing-to-accept = Штрафу немає — нема чого брати
reason-nothing-to-challenge = Зараз нема чого перевіряти на блеф
reason-not-your-challenge = Перевірити «+4» на блеф може лише той, кому брати ці картки
reason-uno-not-now = УНО кажуть у свій хід, коли на руці дві картки, або одразу після ходу, коли лишилася одна
reason-uno-already-called = Ви вже сказали УНО
reason-nothing-to-catch = Нема кого ловити: усі, хто має одну картку, сказали УНО
reason-cannot-catch-yourself = Себе впіймати не можна
reason-jump-in-off = Зараз не ваш хід, а перехоплення ходу в цих правилах вимкнене
reason-jump-in-needs-identical = Перехопити хід можна лише такою самою карткою: той самий колір і те саме число або символ
reason-jump-in-not-on-first-card = На першу картку раунду перехоплювати хід не можна
reason-jump-in-not-with-wild = Дикою картою перехоплювати хід не можна
reason-one-draw-card-per-turn = За один хід можна покласти лише одну картку «+2» або «+4»: перехопити власну картку можна, лише коли після неї зробить хід хтось інший
## A code this version does not know yet.
reason-unknown = Так зараз не можна
