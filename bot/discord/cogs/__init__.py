"""One cog per feature: its methods handle the feature's slash commands and the presses of its
buttons and menus (`bot.discord.items` hands each press to the cog that implements its handler).
A new command or button goes to the cog of its feature; what they all share is in `base`. The
bot adds them all (`bot.discord.app.COGS`)."""
