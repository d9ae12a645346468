"""Card Stock Market's rules options; defaults follow the rulebook where it speaks.

Every point the rulebook leaves open, and the choice made here, is described in
``docs/rules/card-stock-market.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from closingbell.core.errors import OptionError
from closingbell.core.options import (
    RulesOptions,
    boolean,
    choice,
    int_tuple,
    integer,
    option,
    seat,
)
from closingbell.games.card_stock_market.cards import (
    BANK_MONEY,
    DEFAULT_STRIP,
    LEVY,
    MAX_PAYMENT,
    MAX_PRICE,
    START_MONEY,
    STRIPS,
)


@dataclass(frozen=True, kw_only=True)
class CardStockMarketOptions(RulesOptions):
    """The validated options of one Card Stock Market game."""

    players: int = option(4, "Number of players, 2 to 6.", integer(2, 6))
    strip: tuple[int, ...] = option(
        DEFAULT_STRIP,
        "The information strip: largest rise and largest fall per card for clubs, diamonds, "
        "hearts and spades, as eight numbers or by name: 'uniform' ($3 everywhere, the "
        "default) or 'graded' (the project's table differing by suit and direction). Only "
        "the spades' fall of 3 is known; a name is kept as its eight numbers.",
        int_tuple(8, 0, MAX_PRICE, STRIPS),
    )
    starting_money: int = option(
        START_MONEY, "Each player's opening balance in dollars.", integer(0, 1_000_000)
    )
    bank_money: int | None = option(
        BANK_MONEY,
        "The bank's money in dollars (40 chips each of $1, $5, $25); null: an unlimited bank.",
        integer(0, 100_000_000, allow_none=True),
    )
    levy: int = option(
        LEVY,
        "What every player pays into the bank when it cannot pay for a sale.",
        integer(1, 1_000_000),
    )
    same_suit_trades: bool = option(
        True, "Whether one turn may both buy and sell shares of the same suit.", boolean()
    )
    face_raise_limited: bool = option(
        False,
        "Whether a face card played as a raise must stay within the strip's largest rise.",
        boolean(),
    )
    phase_order: str = option(
        "either",
        "The order of a turn's two phases: 'either' (trading and market changes in either "
        "order, each phase's actions together) or 'trade_first' (no buying or selling once "
        "the market has changed that turn).",
        choice("either", "trade_first"),
    )
    same_price_change: bool = option(
        False,
        "Whether a market change may leave the market as it was: a number card equal to the "
        "price, or a bankruptcy of a suit at $0 of which nobody holds shares (false: such a "
        "play is refused, since a market change is played to change the value).",
        boolean(),
    )
    bankrupt_buying: str = option(
        "free",
        "Buying a bankrupt suit (price $0) before a number card covers its face card: "
        "'free' (allowed, at $0: up to 12 shares for nothing) or 'forbidden'.",
        choice("free", "forbidden"),
    )
    ace_at_setup: bool = option(
        True,
        "Whether an ace (a number card worth 1) may start a market pile at the setup.",
        boolean(),
    )
    debt_repayment: str = option(
        "immediate",
        "When a debtor repays the bank: 'immediate' (all money received goes to the debt "
        "first) or 'end_of_turn' (from cash at the end of each of the debtor's turns).",
        choice("immediate", "end_of_turn"),
    )
    first_dealer: int | None = option(
        None, "Seat of the dealer and banker; null draws it from the seed.", seat(allow_none=True)
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.bank_money is not None:
            total = self.bank_money + self.players * self.starting_money
            if total < MAX_PAYMENT:
                raise OptionError(
                    f"options 'bank_money' and 'starting_money' put ${total} in the game; "
                    f"at least ${MAX_PAYMENT} is needed so that the bank can pay any sale"
                )
