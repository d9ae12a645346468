"""Take Stock's rules options; defaults follow the English rulebook (docs/rules/take-stock.md)."""

from __future__ import annotations

from dataclasses import dataclass

from closingbell.core.options import (
    RulesOptions,
    boolean,
    choice,
    int_tuple,
    integer,
    option,
    seat,
)
from closingbell.games.take_stock.cards import DEFAULT_SHARES, MAX_CARD_SHARES, MAX_ROUNDS


@dataclass(frozen=True, kw_only=True)
class TakeStockOptions(RulesOptions):
    """The validated options of one Take Stock game."""

    players: int = option(3, "Number of players, 2 to 6.", integer(2, 6))
    rounds: int = option(
        4, "Number of rounds played; the rulebook plays 4.", integer(1, MAX_ROUNDS)
    )
    shares_table: tuple[int, ...] = option(
        DEFAULT_SHARES,
        "Shares on the cards of values 2 to 12, eleven numbers from 1 to 3 (an assumption).",
        int_tuple(11, 1, MAX_CARD_SHARES),
    )
    limit_counts_freeze: bool = option(
        False, "Whether a freeze card counts as a card of its row in the Limit rule.", boolean()
    )
    frozen_scoring: str = option(
        "price",
        "What a frozen stock is worth at scoring: 'price' (English) or 'zero'.",
        choice("price", "zero"),
    )
    option_shortage: str = option(
        "turn_order",
        "When Option Gained finds too few tokens: 'turn_order' hands out what is left "
        "from the active player on; 'nobody' gives none.",
        choice("turn_order", "nobody"),
    )
    insider_order: str = option(
        "discard_first",
        "Insider Trading: 'discard_first' (English) discards before the retrieved cards join "
        "the hand; 'take_first' (Chinese edition) adds them first.",
        choice("discard_first", "take_first"),
    )
    empty_draw: str = option(
        "last_card",
        "When the share pile runs out: 'last_card' (English) reshuffles as the last card is "
        "drawn; 'next_draw' (Chinese edition) reshuffles when a card is next needed.",
        choice("last_card", "next_draw"),
    )
    crash_counts_one: bool = option(
        True,
        "Whether a crash's half counts the row's 1 (true: a row of 1 and 5 crashes to 1, as "
        "the Chinese edition's figures read) or only the cards above it (false: it stays).",
        boolean(),
    )
    keep_saved_events: bool = option(
        True,
        "Whether saved events are kept into the next round when Market Closed did not end it.",
        boolean(),
    )
    first_dealer: int | None = option(
        None, "Seat of the first dealer; null draws it from the seed.", seat(allow_none=True)
    )
    dealer_tie: str = option(
        "after_dealer",
        "Tie for the lowest score when choosing the dealer: 'after_dealer' takes the tied "
        "player first in turn order after the previous dealer; 'random' draws one.",
        choice("after_dealer", "random"),
    )
    final_tie: str = option(
        "shared",
        "Tie for the highest final score: 'shared' victory, or 'most_tokens' (more unused "
        "option tokens wins, then shared).",
        choice("shared", "most_tokens"),
    )
