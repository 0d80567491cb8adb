## Discord: whose turn it is, and the bot without the right to post

dc-turn-prompt = { $mention }, ваш хід. Відкрийте картки кнопкою нижче.
dc-opt-turn-ping = Згадувати мене, коли мій хід (лише для вас)
dc-no-access-creator = { $mention }, бот не зміг написати в канал { $channel }: йому бракує прав надсилати повідомлення. Гра триває, але підсумків раундів і кнопки реваншу там не видно, доки права не повернуть.
