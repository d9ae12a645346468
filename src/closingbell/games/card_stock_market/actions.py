"""Card Stock Market's action ids and their text notation.

Every decision is one action. Ids are stable (records and learning agents rely on them);
``K`` is a card kind (``suit * 13 + rank - 1``, see :mod:`.cards`):

==============  ============  ===================================================
id range        text          decision
==============  ============  ===================================================
0-51 (+K)       buy 7S        a transaction: buy the card from the hand as shares
52-103 (+K)     sell 7S       a transaction: sell a certificate of that kind
104-155 (+K)    market 7S     a market change: a number card, or a face card as a raise
156-167         bankrupt JS   a market change: a face card that bankrupts its suit
                              (``+ suit * 3 + rank - 11``)
168-219 (+K)    discard 7S    instead of trading and changing the market
220             done          end the turn (skip what is left of it)
==============  ============  ===================================================

Cards are written rank then suit letter (``AC``, ``10H``, ``QS``); the parser also takes
the suit symbols, ``T`` for ten, any case and spacing, ``raise QS`` for ``market QS``
and ``end``, ``end turn`` or ``pass`` for ``done``.
"""

from __future__ import annotations

from closingbell.core.errors import NotationError
from closingbell.games.card_stock_market.cards import (
    JOKER,
    NUM_KINDS,
    NUM_SUITS,
    RANKS,
    card_name,
    kind,
    parse_card,
)

FACES_PER_SUIT = 3
BUY = 0
SELL = BUY + NUM_KINDS
MARKET = SELL + NUM_KINDS
BANKRUPT = MARKET + NUM_KINDS
DISCARD = BANKRUPT + NUM_SUITS * FACES_PER_SUIT
DONE = DISCARD + NUM_KINDS
NUM_ACTIONS = DONE + 1
"""The number of distinct action ids."""


def bankrupt_action(card: int) -> int:
    """The id of ``bankrupt`` with face card ``card`` (a kind of rank 11 to 13)."""
    return BANKRUPT + (card // RANKS) * FACES_PER_SUIT + card % RANKS - 10


def bankrupt_card(action: int) -> int:
    """The face card a ``bankrupt`` action plays."""
    i = action - BANKRUPT
    return kind(i // FACES_PER_SUIT, i % FACES_PER_SUIT + 11)


def hand_card(action: int) -> int | None:
    """The card ``action`` takes from its player's hand, or ``None``.

    A buy, a market change, a bankruptcy and a discard each take one; a sale and ``done``
    take none.
    """
    if BUY <= action < SELL:
        return action - BUY
    if MARKET <= action < BANKRUPT:
        return action - MARKET
    if BANKRUPT <= action < DISCARD:
        return bankrupt_card(action)
    if DISCARD <= action < DONE:
        return action - DISCARD
    return None


def _build_names() -> tuple[str, ...]:
    names: list[str] = []
    for verb in ("buy", "sell", "market"):
        names += [f"{verb} {card_name(c)}" for c in range(NUM_KINDS)]
    names += [
        f"bankrupt {card_name(bankrupt_card(a))}"
        for a in range(BANKRUPT, BANKRUPT + NUM_SUITS * FACES_PER_SUIT)
    ]
    names += [f"discard {card_name(c)}" for c in range(NUM_KINDS)]
    names.append("done")
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES: tuple[str, ...] = _build_names()
"""The text form of every action id."""

_VERBS = {"buy": BUY, "sell": SELL, "market": MARKET, "raise": MARKET, "discard": DISCARD}
_DONE_WORDS = frozenset({"done", "end", "end turn", "pass"})


def action_to_string(action: int) -> str:
    """The text form of ``action``."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise NotationError(
            f"{action!r} is not a Card Stock Market action id (0 to {NUM_ACTIONS - 1})"
        )
    return ACTION_NAMES[action]


def _bad(text: object) -> NotationError:
    return NotationError(
        f"{text!r} is not a Card Stock Market action (examples: 'buy 7S', 'sell 10H', "
        f"'market 4D', 'market QS', 'bankrupt KC', 'discard AH', 'done')"
    )


def string_to_action(text: str) -> int:
    """The action id named by ``text`` (case and spacing do not matter)."""
    if not isinstance(text, str):
        raise NotationError(f"an action's text form must be a string, not {text!r}")
    key = " ".join(text.lower().split())
    if key in _DONE_WORDS:
        return DONE
    verb, _, rest = key.partition(" ")
    card = parse_card(rest) if rest else None
    if card is None or card == JOKER:
        raise _bad(text)
    if verb in ("bankrupt", "bust"):
        if card % RANKS < 10:
            raise NotationError(f"{text!r}: only a jack, queen or king can bankrupt a suit")
        return bankrupt_action(card)
    base = _VERBS.get(verb)
    if base is None:
        raise _bad(text)
    return base + card
