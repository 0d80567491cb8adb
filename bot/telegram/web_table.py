"""Where Telegram opens the web table (`bot.web`) from: the links of its buttons.

A group's message may carry only a URL button, so the group's table links to the bot's Mini App
(`https://t.me/<bot>/<WEBAPP_NAME>?startapp=<game>`: Telegram opens the page with the game as
`initData`'s `start_param`); a private chat's message may carry a `web_app` button, which opens
WEBAPP_URL itself, the game in its query. Without WEBAPP_URL there are no such buttons, and the
group's needs the Mini App's short name too.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from bot.config import Settings


@dataclass(frozen=True)
class WebTable:
    url: str  # WEBAPP_URL: the page's public HTTPS address
    name: str | None = None  # WEBAPP_NAME: the Mini App's short name registered with BotFather

    @classmethod
    def of(cls, settings: Settings) -> WebTable | None:
        if not settings.webapp_url:
            return None
        return cls(settings.webapp_url, settings.webapp_name or None)

    def group_link(self, username: str, game_id: int) -> str | None:
        """The group's URL button: the Mini App's link with the game as its start parameter."""
        if not self.name or not username:
            return None
        return f"https://t.me/{username}/{self.name}?startapp={game_id}"

    def page(self, game_id: int) -> str:
        """The private chat's `web_app` button: the page itself, the game in its query."""
        parts = urlsplit(self.url)
        query = f"{parts.query}&game={game_id}" if parts.query else f"game={game_id}"
        return urlunsplit(parts._replace(query=query))
