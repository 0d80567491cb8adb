"""Why an action was refused: the most specific reason code (see `core.errors.REASONS`).

Only called once `Game.legal_actions` has already said no, so it may be slow and thorough; it
never decides legality itself, it only names the rule that the action broke.
"""

from __future__ import annotations

from core.actions import Action, ActionType
from core.cards import WILD_FOUR, Kind
from core.errors import IllegalAction
from core.state import State


def diagnose(game: State, player: str, action: Action, legal: list[Action]) -> str:
    """Why `action` is not legal for `player`, whose legal actions are `legal`: the most
    specific reason code."""
    if game.winners is not None:
        return "game_over"
    if player not in game.hands:
        return "not_a_player"
    hand = game.hands[player]
    is_current = player == game.players[game.current]
    t = action.type
    p = game.pending
    if t is ActionType.CATCH:
        return "cannot_catch_yourself" if game.catchable == player else "nothing_to_catch"
    if t is ActionType.UNO:
        if player in game.safe or game.precall == player:
            return "uno_already_called"
        return "uno_not_now"
    if not is_current and t is not ActionType.PLAY:
        if t is ActionType.CHALLENGE and (p is None or not p.is_wild_four):
            return "nothing_to_challenge"
        if t is ActionType.CHALLENGE:
            return "not_your_challenge"
        if t is ActionType.CHOOSE and game.color is not None:
            return "nothing_to_choose"
        return "not_your_turn"
    if t is ActionType.CHOOSE:
        return "nothing_to_choose" if game.color is not None else "not_your_turn"
    if game.color is None:
        return "must_choose_color"
    if t is ActionType.CHALLENGE:
        return "nothing_to_challenge"
    if t is ActionType.ACCEPT:
        return "nothing_to_accept"
    if t is ActionType.DRAW:
        if p is not None:
            return "must_answer_penalty"
        return "already_drawn" if game.has_drawn else "not_your_turn"
    if t is ActionType.PASS:
        return "must_answer_penalty" if p is not None else "must_draw_first"
    card = action.card
    assert card is not None
    if card not in hand:
        return "card_not_in_hand"
    if card.is_wild and action.color is None:
        return "wild_needs_color"
    if not card.is_wild and action.color is not None:
        return "color_not_allowed"
    seven = game.rules.seven_zero and card.number == 7 and len(hand) > 1
    if action.target is not None:
        if not seven:
            return "target_not_allowed"
        if action.target not in game.hands or action.target == player:
            return "not_a_target"
    elif seven and any(a.card is card for a in legal):
        return "seven_needs_target"
    if not is_current:
        if not game.rules.jump_in:
            return "jump_in_off" if card is game.discard[-1] else "not_your_turn"
        if game.first_flip:
            return "jump_in_not_on_first_card"
        if card.is_wild:
            return "jump_in_not_with_wild"
        if card is not game.discard[-1]:
            return "jump_in_needs_identical"
        if card.kind is Kind.DRAW_TWO and game.top_played_by == player:
            return "one_draw_card_per_turn"
        return "not_your_turn"
    if p is not None:
        return "not_an_answer" if card.kind is Kind.DRAW_TWO else "must_answer_penalty"
    if game.has_drawn and card is not game.drawn:
        return "only_drawn_card"
    if card is WILD_FOUR and game.rules.no_bluffing:
        return "wild_four_not_allowed"
    return "does_not_match"


# What the player whose turn a jump-in just took would otherwise hear for their ordinary move.
_TURN_TAKEN_REASONS = frozenset(
    {"not_your_turn", "jump_in_needs_identical", "jump_in_not_with_wild"}
)


def refusal(game: State, player: str, action: Action, legal: list[Action]) -> IllegalAction:
    """The error to raise for an action that `legal` (`player`'s legal actions) does not list."""
    reason = diagnose(game, player, action, legal)
    if reason in _TURN_TAKEN_REASONS and player == game.jumped_over:
        reason = "turn_taken_by_jump_in"
    return IllegalAction(reason, str(action), player)
