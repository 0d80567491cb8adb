"""The Discord adapter: slash commands, buttons and menus over the same service as Telegram.

`app` (the bot and `run_discord`), `cog` (slash commands), `controller` (what each interaction
does and what gets sent), `items` (DynamicItem buttons), `layout` (widgets for the views),
`reply` (answering in time), `translator` (localized command names from the Fluent files),
`emoji` (the card art as application emoji, and the table's top-card picture), `hand_row` (a
hand's cards as pictures in its text).
"""
