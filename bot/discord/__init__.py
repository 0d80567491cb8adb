"""The Discord adapter: slash commands, buttons and menus over the same service as Telegram.

`app` wires the bot; `cogs/` hold the handlers, one cog per feature; `items` are the buttons and
menus, each handing its press to its cog; `publisher` decides which message shows each part of an
outcome, `messages` shows it (the Discord calls), `texts` and `layout` render it.
"""
