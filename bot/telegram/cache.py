"""A renderer that remembers what it formatted: the same card labels, button labels and table
lines come back move after move, and Fluent formatting is the adapter's largest CPU cost."""

from __future__ import annotations

from collections import OrderedDict

from bot.presentation.i18n import Arg, I18n
from bot.presentation.render import Renderer
from core.cards import Card, Color

CACHE_SIZE = 20_000


class CachingRenderer(Renderer):
    def __init__(self, i18n: I18n, size: int = CACHE_SIZE) -> None:
        super().__init__(i18n)
        self._size = size
        self._texts: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self._cards: dict[tuple[str, Card, bool, Color | None], str] = {}

    def t(self, lang: str, key: str, **args: Arg) -> str:
        cache_key = (lang, key, *sorted(args.items()))
        text = self._texts.get(cache_key)
        if text is None:
            text = super().t(lang, key, **args)
            self._texts[cache_key] = text
            if len(self._texts) > self._size:
                self._texts.popitem(last=False)
        return text

    def card(self, lang: str, card: Card, colorblind: bool, color: Color | None = None) -> str:
        cache_key = (lang, card, colorblind, color)
        label = self._cards.get(cache_key)
        if label is None:
            label = self._cards[cache_key] = super().card(lang, card, colorblind, color)
        return label
