## Discord: whose turn it is, and the bot without the right to post

dc-turn-prompt = { $mention }, ваш ход. Откройте карты кнопкой ниже.
dc-opt-turn-ping = Упоминать меня, когда мой ход (только для вас)
dc-no-access-creator = { $mention }, бот не смог написать в канал { $channel }: ему не хватает прав отправлять сообщения. Игра продолжается, но итоги раундов и кнопку реванша там не видно, пока права не вернут.
