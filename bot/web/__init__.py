"""The web table: one page per player (a Telegram Mini App, or a local browser), kept live.

An adapter like `bot.telegram`: it turns a page's presses into the chats' hand-button presses
(`bot.presentation.steps.press`) and pushes each player's view after every committed change of
the game (`bot.service.changes`), in the chat's language. It holds no rule.

- `app`: the aiohttp application (the page, its hashed files, the WebSocket);
- `assets`: the page's files and the card sprite sheets; `frames`: views into JSON frames;
- `auth`: Telegram's `initData`, or a local table's secret; `socket`: one page's protocol;
- `hub`: the open pages by game and the push after a change; `local`: `--web` on this computer.
"""
