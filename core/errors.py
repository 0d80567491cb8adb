"""Refusals. Adapters translate `IllegalAction.reason` codes, so the codes are stable API."""

from __future__ import annotations

REASONS: tuple[str, ...] = (
    "game_over",
    "not_a_player",
    "not_your_turn",
    "turn_taken_by_jump_in",  # somebody jumped in and took this player's turn a moment ago
    "card_not_in_hand",
    "does_not_match",
    "wild_needs_color",
    "color_not_allowed",  # a color was given with a card that is not wild
    "wild_four_not_allowed",  # "no bluffing": the player holds a card of the current color
    "must_choose_color",  # the first flipped card is a wild: its color comes first
    "nothing_to_choose",
    "must_answer_penalty",  # accept, challenge, pass on or defend before anything else
    "not_an_answer",  # this card cannot pass on or defend against the pending penalty
    "only_drawn_card",  # after drawing, only the drawn card may be played
    "already_drawn",
    "must_draw_first",  # pass is only allowed after drawing
    "nothing_to_accept",
    "nothing_to_challenge",
    "not_your_challenge",  # only the player who must draw 4 may challenge
    "uno_not_now",  # UNO is called holding two cards on one's turn, or right after the play
    "uno_already_called",
    "nothing_to_catch",
    "cannot_catch_yourself",
    "jump_in_off",  # out of turn, and jump-in is not in these rules
    "jump_in_needs_identical",  # jump-in needs the same color and the same number or symbol
    "jump_in_not_on_first_card",
    "jump_in_not_with_wild",
    "one_draw_card_per_turn",  # nobody may jump in on their own Draw Two
    "seven_needs_target",  # seven-zero: a 7 names the player to swap hands with
    "target_not_allowed",  # only a 7 under seven-zero names a player
    "not_a_target",  # the named player is not at the table, or is the one playing
)


class IllegalAction(ValueError):
    """An action the rules refuse; the game is left exactly as it was."""

    def __init__(self, reason: str, action: str = "", player: str = "") -> None:
        assert reason in REASONS, reason
        self.reason = reason
        self.action = action
        self.player = player
        super().__init__(f"{action!r} by {player!r} refused: {reason}")
