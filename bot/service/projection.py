"""What the table shows and what each player sees privately, built from a match.

Pure functions of the committed match and the chat's settings: the views hold no text
(`bot.presentation.render` words them) and no platform widget (each adapter draws its own).
"""

from __future__ import annotations

from bot.service.chat_settings import ChatSettings
from bot.service.match import Match
from bot.service.outcome import Notice, Outcome
from bot.service.views import HandView, Seat, TableView, choices_for, is_bot
from core.cards import sort_hand


def table_view(match: Match, settings: ChatSettings) -> TableView:
    lobby, game = match.lobby, match.game
    common = dict(
        chat_key=match.chat_key,
        game_id=match.id,
        version=match.version,
        status=match.status,
        lang=settings.lang or "ru",
        colorblind=settings.colorblind,
        creator=lobby.creator,
        closed=lobby.closed,
        timer=settings.timer,
        deadline=match.deadline,
        bot_level=match.bot_level(settings.strong_bots),
    )
    if game is None:
        seats = [
            Seat(p, lobby.names.get(p, ""), 0, 0, is_bot(p), False, False) for p in lobby.players
        ]
        return TableView(
            rules=settings.rules(),
            seats=seats,
            invited=lobby.still_invited(),
            **common,  # type: ignore[arg-type]
        )
    scores = game.scores
    seats = [
        Seat(
            p,
            lobby.names.get(p, ""),
            len(game.hands[p]),
            scores.get(p, 0),
            is_bot(p),
            not game.is_over and p == game.current_player,
            p in game.safe,
        )
        for p in game.players
    ]
    pending = game.pending
    return TableView(
        rules=game.rules,
        seats=seats,
        round_no=game.round_no,
        dealer=game.dealer,
        top=game.top_card,
        color=game.current_color,
        direction=game.direction,
        current=None if game.is_over else game.current_player,
        pending_target=None if pending is None else pending.target,
        pending_amount=0 if pending is None else pending.amount,
        draw_size=game.draw_pile_size,
        recent=match.table.recent_events(),
        winners=game.game_winners,
        **common,  # type: ignore[arg-type]
    )


def hand_view(match: Match, settings: ChatSettings, player: str) -> HandView:
    game = match.game
    assert game is not None
    in_game = player in game.hands
    current = None if game.is_over else game.current_player
    pending = game.pending
    return HandView(
        chat_key=match.chat_key,
        game_id=match.id,
        player=player,
        version=match.hand_version(player),
        lang=settings.lang or "ru",
        colorblind=settings.colorblind,
        status="finished" if game.is_over else match.status,
        cards=sort_hand(game.hands[player]) if in_game else [],
        choices=choices_for(game.legal_actions(player)) if in_game else [],
        is_turn=current == player,
        current=current,
        current_name=match.names.get(current, "") if current else "",
        top=game.top_card,
        color=game.current_color,
        pending_amount=pending.amount if pending is not None and pending.target == player else 0,
        drawn=game.drawn if current == player else None,
        left=not in_game,
    )


def shown(match: Match, settings: ChatSettings, info: Notice | None = None) -> Outcome:
    """The match's table as it stands, with an optional confirmation for the chat."""
    return Outcome(
        match.chat_key,
        settings.lang or "ru",
        info=info,
        table=table_view(match, settings),
        names=dict(match.names),
    )


def refused(match: Match, settings: ChatSettings, key: str, **args: object) -> Outcome:
    """A refusal about this match, for the acting user only: nothing changed."""
    return Outcome(
        match.chat_key, settings.lang or "ru", error=Notice(key, args), names=dict(match.names)
    )
