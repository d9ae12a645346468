"""Take Stock's position notation: a whole position as a few lines a person can write.

:func:`write_position` gives the canonical text of a state (every field, one line), and
the readers of one field's words (cards, lists, the ``decide`` field) give its values;
:func:`~closingbell.games.take_stock.position_reader.read_position` builds a state from
them. The grammar is :mod:`closingbell.core.position`'s; the fields, their defaults and
what a game started from a position knows are described in ``docs/positions.md``.

Share cards are written as the stock and the value with no space (``Oil7``), the action
notation's ``Oil 7`` made into one list item; event cards as their names with no spaces
(``SplitCorn``, ``NoChange``, ``MarketClosed``). Piles are written top first, market rows
from the 1 up. In a short position ``?`` stands for one unnamed card and ``...`` at the
end of a list for "unnamed cards up to the usual number": a hand's usual size, or every
unnamed card left for a pile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from closingbell.core.errors import PositionError
from closingbell.core.position import (
    integer,
    items,
    write_fields,
    write_items,
    write_per_seat,
)
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.state import (
    AUDIT_WHAT,
    CHOOSE,
    DISCARD,
    DOWNTURN,
    EXERCISE,
    FOLLOW_MARKET_A,
    FOLLOW_MARKET_B,
    FOLLOW_NONE,
    FOLLOW_PLAY,
    FOLLOW_SAVE,
    INSIDER_DISCARD,
    OVER,
    PHASE_NAMES,
    RETRIEVE,
    TakeStockFields,
)

STOCK_FIELDS: tuple[str, ...] = tuple(name.lower() for name in C.STOCKS)
"""The five market fields, one per stock, in the order of the rows."""

FIELDS: tuple[str, ...] = (
    "seed",
    "round",
    "dealer",
    "turn",
    "decide",
    *STOCK_FIELDS,
    "hands",
    "shown",
    "aside",
    "certs",
    "saved",
    "tokens",
    "supply",
    "draw",
    "discard",
    "reshuffles",
    "events",
    "events_discard",
    "scores",
    "ended",
)
"""Every field of a Take Stock position, in the order :func:`write_position` writes them."""

UNNAMED = "?"
"""One card the position does not name (short positions only)."""
REST = "..."
"""At the end of a list: unnamed cards up to the usual number (short positions only)."""

SPLIT_WORD = "split"
"""In a market row: one split card above the row."""
FREEZE_WORD = "freeze"
"""In a market row: the freeze card at the end of the row."""

MAX_RESHUFFLES = 999
"""The most reshuffles a position may count (far more than a round can hold)."""

_FOLLOW_WORDS: dict[int, str] = {
    FOLLOW_SAVE: "save",
    FOLLOW_MARKET_A: "market A",
    FOLLOW_MARKET_B: "market B",
    FOLLOW_PLAY: "play",
}


# ---------------------------------------------------------------------- card tokens


def share_token(card: int) -> str:
    """The token of a share card: its stock and value with no space, such as ``Oil7``."""
    return f"{C.STOCKS[card // C.VALUES]}{card % C.VALUES + 1}"


def event_token(kind: int) -> str:
    """The token of an event card: its name with no spaces, such as ``SplitCorn``."""
    return C.EVENT_NAMES[kind].replace(" ", "")


_SHARES: dict[str, int] = {share_token(c).lower(): c for c in range(C.NUM_SHARE_CARDS)}
_EVENTS: dict[str, int] = {event_token(k).lower(): k for k in range(C.NUM_EVENT_KINDS)}
_STOCK_NAMES: dict[str, int] = {name.lower(): s for s, name in enumerate(C.STOCKS)}


def read_share(field_name: str, token: str) -> int:
    """The share card named by ``token`` (any case), such as ``Oil7``."""
    card = _SHARES.get(token.lower())
    if card is None:
        raise PositionError(
            field_name,
            f"{token!r} is not a share card (write the stock and the value, like Oil7)",
        )
    return card


def read_event(field_name: str, token: str) -> int:
    """The event kind named by ``token`` (any case), such as ``SplitCorn``."""
    kind = _EVENTS.get(token.lower())
    if kind is None:
        raise PositionError(
            field_name,
            f"{token!r} is not an event card (write its name with no spaces, like SplitCorn, "
            "Audit or NoChange)",
        )
    return kind


def read_stock(field_name: str, token: str) -> int:
    """The stock named by ``token`` (any case), such as ``Oil``."""
    s = _STOCK_NAMES.get(token.lower())
    if s is None:
        raise PositionError(field_name, f"{token!r} is not a stock ({', '.join(C.STOCKS)})")
    return s


# ---------------------------------------------------------------------- writing


def _write_row(st: TakeStockFields, s: int) -> str:
    words = [str(v) for v in st.rows[s]]
    words += [SPLIT_WORD] * st.splits[s]
    if st.frozen[s]:
        words.append(FREEZE_WORD)
    return " ".join(words)


def _shares(cards: list[int]) -> str:
    return write_items(share_token(c) for c in cards)


def _events(kinds: list[int]) -> str:
    return write_items(event_token(k) for k in kinds)


def _write_decide(st: TakeStockFields) -> str:
    phase = st.phase
    if phase == OVER:
        return PHASE_NAMES[OVER]
    words = [str(st.cur), PHASE_NAMES[phase]]
    if phase == DISCARD:
        words += ["for", _FOLLOW_WORDS[st.follow]]
        if st.follow == FOLLOW_PLAY:
            words.append(event_token(st.ev_active))
    elif phase == CHOOSE:
        words += ["drew", *(event_token(k) for k in st.pair)]
    elif phase in (AUDIT_WHAT, RETRIEVE, INSIDER_DISCARD):
        words.append(C.STOCKS[st.ev_stock])
        if st.retrieved:
            words += ["took", *(share_token(c) for c in st.retrieved)]
        if phase == INSIDER_DISCARD:
            words += ["owe", str(st.owed)]
    elif phase in (DOWNTURN, EXERCISE):
        words += ["waiting", *(str(q) for q in st.queue)]
    return " ".join(words)


def write_position(st: TakeStockFields) -> str:
    """The canonical one-line position of ``st``: every field, in the order of ``FIELDS``."""
    ended = list(st.round_reasons)
    if st.phase == EXERCISE and st.end_reason is not None:
        ended.append(st.end_reason)
    pile = [*reversed(st.ev_above)]
    if C.MARKET_CLOSED not in st.ev_discard:
        pile.append(C.MARKET_CLOSED)
    pile += reversed(st.ev_below)
    values: dict[str, str] = {
        "seed": str(st.seed),
        "round": str(st.round),
        "dealer": str(st.dealer),
        "turn": str(st.turn),
        "decide": _write_decide(st),
        **{STOCK_FIELDS[s]: _write_row(st, s) for s in range(C.NUM_STOCKS)},
        "hands": write_per_seat(_shares(h) for h in st.hands),
        "shown": write_per_seat(_shares(k) for k in st.known),
        "aside": write_per_seat(_shares(h) for h in st.hidden),
        "certs": write_per_seat(_shares(c) for c in st.certs),
        "saved": write_per_seat(_events(s) for s in st.saved),
        "tokens": write_per_seat(str(t) for t in st.tokens),
        "supply": str(st.supply),
        "draw": _shares(st.draw[::-1]),
        "discard": _shares(st.discard[::-1]),
        "reshuffles": str(st.reshuffles),
        "events": _events(pile),
        "events_discard": _events(st.ev_discard[::-1]),
        "scores": write_per_seat(
            write_items(str(points[q]) for points in st.round_scores) for q in range(st.n)
        ),
        "ended": write_items(ended),
    }
    return write_fields((name, values[name]) for name in FIELDS)


# ---------------------------------------------------------------------- reading: lists


@dataclass
class CardList:
    """A list of cards as written: named cards, ``None`` for each ``?``, and a final ``...``."""

    field: str
    cards: list[int | None]
    rest: bool = False
    given: bool = True


def read_list(field_name: str, value: str, *, events: bool = False) -> CardList:
    """The cards of a list as written in field ``field_name`` (event cards if ``events``)."""
    tokens = items(value)
    rest = bool(tokens) and tokens[-1] == REST
    if rest:
        tokens = tokens[:-1]
    cards: list[int | None] = []
    for token in tokens:
        if token == REST:
            raise PositionError(field_name, f"{REST!r} may only end a list")
        if token == UNNAMED:
            cards.append(None)
        elif events:
            cards.append(read_event(field_name, token))
        else:
            cards.append(read_share(field_name, token))
    return CardList(field_name, cards, rest)


def named_only(lst: CardList, what: str) -> list[int]:
    """The cards of ``lst``, which must name every one (``what`` says what they are)."""
    if lst.rest or None in lst.cards:
        raise PositionError(lst.field, f"{what} are named one by one ('?' and '...' are not read)")
    return [c for c in lst.cards if c is not None]


# ---------------------------------------------------------------------- reading: decide


@dataclass
class Decision:
    """The ``decide`` field: who decides what, and the details the decision needs."""

    seat: int | None
    phase: int
    follow: int = FOLLOW_NONE
    played: int = -1
    pair: list[int] = field(default_factory=list)
    stock: int = -1
    took: list[int] = field(default_factory=list)
    owed: int | None = None
    waiting: list[int] | None = None


def read_decide(value: str, n: int) -> Decision:
    """The ``decide`` field of a position of ``n`` seats."""
    words = value.split()
    if not words:
        raise PositionError("decide", "name the decision, such as '0 action'")
    seat: int | None = None
    if re.fullmatch(r"-?\d+", words[0]):
        seat = integer("decide", words[0], 0, n - 1)
        words = words[1:]
    if not words:
        raise PositionError("decide", "name the decision after the seat, such as '0 action'")
    name = words[0].lower()
    if name not in PHASE_NAMES:
        raise PositionError("decide", f"{words[0]!r} is not a decision ({', '.join(PHASE_NAMES)})")
    phase = PHASE_NAMES.index(name)
    details = words[1:]
    found = Decision(seat, phase)
    if phase == OVER:
        if seat is not None:
            raise PositionError("decide", "nobody decides once the game is over")
    elif phase == DISCARD:
        _read_follow(found, details)
        details = []
    elif phase == CHOOSE:
        if len(details) != 3 or details[0].lower() != "drew":
            raise PositionError(
                "decide", "'choose_event' names the two events drawn: 'drew Audit Freeze'"
            )
        found.pair = [read_event("decide", t) for t in details[1:]]
        if C.MARKET_CLOSED in found.pair:
            raise PositionError(
                "decide", "Market Closed ends the round as soon as it is drawn: it is never chosen"
            )
        details = []
    elif phase in (AUDIT_WHAT, RETRIEVE, INSIDER_DISCARD):
        if not details:
            raise PositionError("decide", f"{name!r} names the stock of its event, such as 'Oil'")
        found.stock = read_stock("decide", details[0])
        details = _read_took_owed(found, details[1:], phase)
    elif phase in (DOWNTURN, EXERCISE) and details:
        if details[0].lower() != "waiting" or len(details) == 1:
            raise PositionError(
                "decide", f"{name!r} may list the seats yet to choose: 'waiting 1 2'"
            )
        found.waiting = [integer("decide", t, 0, n - 1) for t in details[1:]]
        details = []
    if details:
        raise PositionError("decide", f"{name!r} takes no {' '.join(details)!r}")
    return found


def _read_follow(found: Decision, details: list[str]) -> None:
    text = " ".join(details).lower()
    words = {"for save": FOLLOW_SAVE, "for market a": FOLLOW_MARKET_A}
    words["for market b"] = FOLLOW_MARKET_B
    if text in words:
        found.follow = words[text]
        return
    if len(details) == 3 and text.startswith("for play "):
        found.follow = FOLLOW_PLAY
        found.played = read_event("decide", details[2])
        if found.played == C.MARKET_CLOSED:
            raise PositionError("decide", "Market Closed is never saved, so never played")
        return
    raise PositionError(
        "decide",
        "a discard says what it pays for: 'for save', 'for market A', 'for market B' or "
        "'for play <event>'",
    )


def _read_took_owed(found: Decision, details: list[str], phase: int) -> list[str]:
    if phase == AUDIT_WHAT:
        return details
    rest: list[str] = []
    i = 0
    while i < len(details):
        word = details[i].lower()
        if word == "took":
            i += 1
            while i < len(details) and details[i].lower() not in ("owe", "took"):
                found.took.append(read_share("decide", details[i]))
                i += 1
        elif word == "owe" and phase == INSIDER_DISCARD and i + 1 < len(details):
            found.owed = integer("decide", details[i + 1], 1, C.MAX_RETRIEVE)
            i += 2
        else:
            rest.append(details[i])
            i += 1
    return rest
