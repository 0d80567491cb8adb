"""The Telegram adapter (aiogram 3): routers per feature, callback data, keyboards, one sender."""
