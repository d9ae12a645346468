"""Crafted Take Stock positions for tests: a thin layer over the position notation.

:func:`position` reads a position written in the notation (``docs/positions.md``), the way
rules tests build their positions. :func:`craft` keeps the keyword form older tests use: it
writes the keywords as a short position and reads it, so everything it is not told about
takes the notation's defaults (hands dealt to their usual size from a seeded deal, the rest
in the draw pile, Market Closed 11th from the bottom of the event pile, the public knowledge
of a fresh deal) and the engine can play on from it.

Cards are named as in the action notation (``"Oil 7"``, ``"Split Tech"``, ``"Audit"``) or
given as ids. Rows list values (``{"Oil": [1, 3, 7]}``; the 1 may be left out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import closingbell
from closingbell import IllegalActionError
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.games.take_stock.position import event_token, share_token

Card = int | str

_STOCK_IDS = {name.lower(): s for s, name in enumerate(C.STOCKS)}
_EVENT_IDS = {name.lower(): k for k, name in enumerate(C.EVENT_NAMES)}


def make_game(players: int = 3, **options: object) -> TakeStock:
    """Load Take Stock with ``players`` seats and the given rules options."""
    game = closingbell.load_game("take_stock", players=players, **options)
    assert isinstance(game, TakeStock)
    return game


def position(text: str, players: int = 3, **options: object) -> TakeStockState:
    """The state of a position written in the notation, with ``players`` seats and options."""
    return make_game(players, **options).state_from_position(text)


def card(name: Card) -> int:
    """The id of a share card given as ``"Oil 7"`` (any case) or as an id."""
    if isinstance(name, int):
        if not 0 <= name < C.NUM_SHARE_CARDS:
            raise ValueError(f"no share card has id {name}")
        return name
    stock, _, value = name.strip().rpartition(" ")
    if stock.lower() not in _STOCK_IDS or not value.isdigit() or not 1 <= int(value) <= 12:
        raise ValueError(f"{name!r} is not a share card (write it like 'Oil 7')")
    return C.card_id(_STOCK_IDS[stock.lower()], int(value))


def cards(names: Iterable[Card]) -> list[int]:
    """The ids of several share cards."""
    return [card(n) for n in names]


def stock(name: int | str) -> int:
    """The index of a stock given by name (any case) or index."""
    if isinstance(name, int):
        if not 0 <= name < C.NUM_STOCKS:
            raise ValueError(f"no stock has index {name}")
        return name
    try:
        return _STOCK_IDS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"{name!r} is not a stock ({', '.join(C.STOCKS)})") from None


def event(name: int | str) -> int:
    """The kind of an event card given by name (``"Split Oil"``, any case) or kind."""
    if isinstance(name, int):
        if not 0 <= name < C.NUM_EVENT_KINDS:
            raise ValueError(f"no event kind {name}")
        return name
    try:
        return _EVENT_IDS[" ".join(name.lower().split())]
    except KeyError:
        raise ValueError(f"{name!r} is not an event card") from None


def _per_seat(value: Mapping[int, Any] | Sequence[Any] | None, n: int) -> dict[int, Any]:
    if value is None:
        return {}
    pairs = value.items() if isinstance(value, Mapping) else enumerate(value)
    out = dict(pairs)
    for seat in out:
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} does not exist with {n} players")
    return out


def _shares(names: Iterable[Card]) -> list[str]:
    return [share_token(card(c)) for c in names]


def _events(names: Iterable[int | str]) -> list[str]:
    return [event_token(event(k)) for k in names]


def _seats(parts: list[list[str]]) -> str:
    return " / ".join(" ".join(p) or "-" for p in parts)


def craft(game: TakeStock, **keywords: Any) -> TakeStockState:
    """Return the state of ``game`` described by the keywords of :func:`craft_text`.

    The keywords become the fields of a short position, read with
    ``game.state_from_position``; the notation's defaults fill in the rest.
    """
    return game.state_from_position(craft_text(game, **keywords))


def craft_text(
    game: TakeStock,
    *,
    seed: int = 1,
    current: int = 0,
    dealer: int | None = None,
    rows: Mapping[str | int, Sequence[int]] | None = None,
    splits: Mapping[str | int, int] | None = None,
    frozen: Iterable[str | int] = (),
    hands: Mapping[int, Sequence[Card]] | None = None,
    known: Mapping[int, Sequence[Card]] | None = None,
    certs: Mapping[int, Sequence[Card]] | None = None,
    discard: Sequence[Card] = (),
    draw_top: Sequence[Card] = (),
    draw_size: int | None = None,
    spare_to_certs: int | None = None,
    saved: Mapping[int, Sequence[int | str]] | None = None,
    event_top: Sequence[int | str] = (),
    events_above: int | None = None,
    event_discard: Sequence[int | str] = (),
    tokens: Mapping[int, int] | Sequence[int] | None = None,
    round: int = 1,
    scores: Sequence[int] | None = None,
) -> str:
    """The short position :func:`craft` reads, one field a line.

    - ``rows``/``splits``/``frozen``: the market (unnamed stocks stand at 1, no split).
    - ``hands``: exact hands; a seat not named is dealt its usual size (one more for
      ``current``, who has drawn). ``known``: cards of a hand everyone has seen.
    - ``certs``: certificates on the table; ``discard``: the shares discard pile, bottom
      first (the last card is the top).
    - ``draw_top``: the next share cards to be drawn, top first. ``draw_size`` fixes the
      draw pile's size; the unnamed cards that do not fit go to the discard pile, or to
      the certificates of seat ``spare_to_certs`` when it is given.
    - ``saved``: saved event cards per seat; ``event_top``: the next event cards, top
      first; ``events_above`` fixes how many cards lie above Market Closed (by default
      ten lie under it); ``event_discard``: the events discard pile, bottom first.
    - ``tokens``: unused option tokens per seat (4 for a seat not named).
    - ``round`` and ``scores``: the round being played and the totals so far (recorded as
      the first earlier round's points, later earlier rounds scoring nothing).
    """
    n = game.options.players
    if not 0 <= current < n:
        raise ValueError(f"current seat {current} does not exist with {n} players")
    lines = [f"seed: {seed}", f"round: {round}", f"turn: {current}"]
    if dealer is not None:
        lines.append(f"dealer: {dealer}")
    market: dict[int, list[str]] = {}
    for name, values in (rows or {}).items():
        market[stock(name)] = [str(v) for v in values]
    for name, count in (splits or {}).items():
        market.setdefault(stock(name), []).extend(["split"] * count)
    for name in frozen:
        market.setdefault(stock(name), []).append("freeze")
    for s, words in sorted(market.items()):
        lines.append(f"{C.STOCKS[s].lower()}: {' '.join(words)}")
    hand_map = _per_seat(hands, n)
    lines.append(
        "hands: " + _seats([_shares(hand_map[q]) if q in hand_map else ["..."] for q in range(n)])
    )
    if known:
        shown = _per_seat(known, n)
        lines.append("shown: " + _seats([_shares(shown.get(q, ())) for q in range(n)]))
    cert_map = _per_seat(certs, n)
    cert_parts = [_shares(cert_map.get(q, ())) for q in range(n)]
    discard_part = _shares(discard)[::-1]
    if draw_size is not None:
        top = _shares(draw_top)
        if draw_size < len(top):
            raise ValueError("draw_size is smaller than draw_top")
        lines.append("draw: " + (" ".join(top + ["?"] * (draw_size - len(top))) or "-"))
        if spare_to_certs is not None:
            cert_parts[spare_to_certs].append("...")
        else:
            discard_part.append("...")
    elif draw_top:
        lines.append("draw: " + " ".join([*_shares(draw_top), "..."]))
    if discard_part:
        lines.append("discard: " + " ".join(discard_part))
    if any(cert_parts):
        lines.append("certs: " + _seats(cert_parts))
    if saved:
        saved_map = _per_seat(saved, n)
        lines.append("saved: " + _seats([_events(saved_map.get(q, ())) for q in range(n)]))
    pile = _events(event_top)
    if events_above is not None:
        if events_above < len(pile):
            raise ValueError(f"{events_above} cards above Market Closed, {len(pile)} named")
        pile += ["?"] * (events_above - len(pile)) + ["MarketClosed"]
    if pile:
        lines.append("events: " + " ".join([*pile, "..."]))
    if event_discard:
        lines.append("events_discard: " + " ".join(_events(event_discard)[::-1]))
    if tokens is not None:
        token_map = _per_seat(tokens, n)
        lines.append(
            "tokens: " + " / ".join(str(token_map.get(q, C.START_TOKENS)) for q in range(n))
        )
    if round > 1:
        totals = list(scores) if scores is not None else [0] * n
        if len(totals) != n:
            raise ValueError("scores need one total per seat")
        earlier = [[t] + [0] * (round - 2) for t in totals]
        lines.append("scores: " + " / ".join(" ".join(map(str, e)) for e in earlier))
    elif scores is not None and any(scores):
        raise ValueError("scores are only given after round 1")
    return "\n".join(lines)


def play(state: TakeStockState, *moves: str) -> TakeStockState:
    """Apply each move, given in the text notation, and check the invariants after each."""
    for text in moves:
        state.apply_string(text)
        state.check_invariants()
    return state


def legal_names(state: TakeStockState) -> list[str]:
    """The legal actions of ``state`` in the text notation, in id order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def assert_refused(state: TakeStockState, action: int | str, *reason: str) -> str:
    """Check that ``action`` is refused with a message holding each ``reason`` fragment,
    and that the state is left exactly as it was; return the message."""
    before = state.to_json()
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        if isinstance(action, str):
            state.apply(state.string_to_action(action))
        else:
            state.apply(action)
    message = str(info.value)
    for fragment in reason:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert state.to_json() == before, "a refused action changed the state"
    assert state.legal_actions() == legal
    return message
