"""Card Stock Market's cards and fixed figures as data.

Two standard 52-card decks are shuffled together, so every card exists twice and the two
copies are interchangeable: a card is known by its *kind*, ``suit * 13 + rank - 1``
(0 to 51, rank 1 the ace, 11 to 13 jack, queen, king), and :data:`JOKER` (52) is the kind
of both jokers. Hands, piles and certificates are lists of kinds.

The information strip is :data:`STRIP`, one table; only one of its figures is known from
the rulebook (see its docstring), and the ``strip`` rules option replaces it.
"""

from __future__ import annotations

SUITS: tuple[str, ...] = ("Clubs", "Diamonds", "Hearts", "Spades")
"""The four companies, one per suit, in the order of the information strip."""
SUIT_LETTERS = "CDHS"
"""The letter of each suit in the text notation (``7S`` is the seven of spades)."""
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"
"""The symbol of each suit, for display (the notation also accepts them)."""
NUM_SUITS = 4
RANKS = 13
"""Ranks per suit: ace (1), 2 to 10, jack (11), queen (12), king (13)."""
RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The text form of each rank, ace first."""
NUM_KINDS = NUM_SUITS * RANKS
"""Distinct kinds of suit card (52); the deck holds two of each."""
JOKER = NUM_KINDS
"""The kind of a joker."""
COPIES = 2
"""Copies of each kind in the double deck; also the number of jokers."""
DECK_SIZE = NUM_KINDS * COPIES
"""Suit cards in the double deck (104), jokers not counted."""

FACE_SHARES = 5
"""A jack, queen or king bought as a certificate counts this many shares."""
MAX_SHARES = 12
"""No player may hold more shares than this of one suit."""
HAND_SIZE = 8
"""Cards dealt to each player, and the hand drawn back up to after every turn."""
DEAL_BATCH = 2
"""The deal goes round in batches of this many cards."""
MAX_TRADES = 2
"""Buy or sell transactions per turn, made together."""
MAX_CHANGES = 2
"""Market changes per turn, made together."""
MAX_DISCARDS = 4
"""Cards a player may discard instead of trading and changing the market."""

START_MONEY = 200
"""Each player's opening balance ($1 x 5, $5 x 4, $25 x 7 in chips)."""
BANK_MONEY = 40 * (1 + 5 + 25)
"""The bank's money: about 40 chips of each of $1, $5 and $25, taken as exactly 40 ($1,240)."""
LEVY = 100
"""What each player pays into the bank when it cannot pay for a sale."""

STRIP: tuple[tuple[int, int], ...] = (
    (3, 3),  # Clubs: both figures assumed
    (3, 3),  # Diamonds: both figures assumed
    (3, 3),  # Hearts: both figures assumed
    (3, 3),  # Spades: the rise assumed; the fall of 3 is the rulebook's own example
)
"""The information strip: ``(largest rise, largest fall)`` in dollars per card, by suit.

Only the spades' fall of $3 is printed in the rulebook's text; the strip itself is shown
only as a picture that no source we found describes. Every other figure here is the
project's assumption (the one known figure repeated), documented in
``docs/rules/card-stock-market.md``; the ``strip`` rules option replaces the whole table.
"""
DEFAULT_STRIP: tuple[int, ...] = tuple(x for pair in STRIP for x in pair)
""":data:`STRIP` flattened as the ``strip`` option takes it: rise, fall, rise, fall ..."""

GRADED_STRIP: tuple[tuple[int, int], ...] = (
    (2, 2),  # Clubs: the steady company, small moves both ways
    (4, 2),  # Diamonds: the grower, quick to rise and slow to fall
    (4, 4),  # Hearts: the gamble, large moves both ways
    (2, 3),  # Spades: the faller, the rulebook's fall of 3 with a smaller rise
)
"""A strip whose limits differ by suit and by direction: the project's own invention.

The rulebook's one figure (a *decrease* limit *for spades*) implies such a strip; its
real figures are unknown, so this table only gives players a strip worth reading. Each
suit has a character, spades keep the known fall of $3, and the limits average a little
under $3, so prices move about as far per card as with :data:`STRIP`. The ``strip``
option takes it by name (``strip="graded"``); see ``docs/rules/card-stock-market.md``.
"""

STRIPS: dict[str, tuple[int, ...]] = {
    "uniform": DEFAULT_STRIP,
    "graded": tuple(x for pair in GRADED_STRIP for x in pair),
}
"""The named strips the ``strip`` option accepts, each as the eight numbers it stands for."""


def kind(suit: int, rank: int) -> int:
    """The kind of the card of ``suit`` with ``rank`` (1 ace to 13 king)."""
    return suit * RANKS + rank - 1


def suit_of(card: int) -> int:
    """The suit of a suit card."""
    return card // RANKS


def rank_of(card: int) -> int:
    """The rank of a suit card (1 ace to 13 king)."""
    return card % RANKS + 1


def is_face(card: int) -> bool:
    """Whether a suit card is a jack, queen or king."""
    return card % RANKS >= 10


def card_name(card: int) -> str:
    """The text form of a card: ``7S``, ``10H``, ``QD``, ``AC`` or ``Joker``."""
    if card == JOKER:
        return "Joker"
    return RANK_NAMES[card % RANKS] + SUIT_LETTERS[card // RANKS]


def card_symbol(card: int) -> str:
    """The card with its suit symbol, for display: ``7\u2660``."""
    if card == JOKER:
        return "Joker"
    return RANK_NAMES[card % RANKS] + SUIT_SYMBOLS[card // RANKS]


SUIT_OF: tuple[int, ...] = tuple(c // RANKS for c in range(NUM_KINDS))
"""The suit of each kind (a table, for the engine's hot path)."""
RANK_OF: tuple[int, ...] = tuple(c % RANKS + 1 for c in range(NUM_KINDS))
"""The rank of each kind."""
SHARES: tuple[int, ...] = tuple(
    c % RANKS + 1 if c % RANKS < 10 else FACE_SHARES for c in range(NUM_KINDS)
)
"""Shares a certificate of each kind stands for: its pips, a face card counting 5."""
FACE_PRICE: tuple[int, ...] = (0,) * 10 + (11, 12, 13)
"""The price a face card sets when played as a raise, by rank index (jack $11 ...)."""
MAX_PRICE = 13
"""The highest price a suit can have (a king played as a raise)."""
MAX_PAYMENT = 10 * MAX_PRICE
"""The most one sale can pay: a ten at the highest price."""

_LETTER_TO_SUIT = {
    **{ch: s for s, ch in enumerate(SUIT_LETTERS)},
    **{ch: s for s, ch in enumerate(SUIT_SYMBOLS)},
    "\u2667": 0,
    "\u2662": 1,
    "\u2661": 2,
    "\u2664": 3,
}
_RANK_TEXT = {name: r + 1 for r, name in enumerate(RANK_NAMES)}
_RANK_TEXT.update({"1": 1, "T": 10, "11": 11, "12": 12, "13": 13})


def parse_card(text: str) -> int | None:
    """The kind named by ``text`` (``7S``, ``10h``, ``T\u2660``, ``joker``), else ``None``."""
    t = text.strip().upper()
    if t == "JOKER":
        return JOKER
    if len(t) < 2:
        return None
    suit = _LETTER_TO_SUIT.get(t[-1])
    rank = _RANK_TEXT.get(t[:-1].strip())
    if suit is None or rank is None:
        return None
    return kind(suit, rank)
